import type { IRouter } from 'express';
import type { InspectedRemote, InspectedSlot, SlotInspectionPayload, SlotLocation } from '../../shared';
import { requireSession } from '../auth/require-session';
import { jsonRoute } from '../http/json-route';
import type { RemoteCatalogue } from '../remotes/remote-catalogue';
import type { SlotRegistry } from './slot-registry';
import type { Slot } from '../../shared';

/**
 * "Why is my component not on the page?", answered by the server: every slot of every location with where it
 * comes from (code or REMOTES_CONFIG), the remote that provides it, who may see it, and what stops it from
 * rendering; every remote with its entry and whether its descriptor answered. Configured slots that are left out
 * (remote down, component it does not provide) are listed with the reason.
 */
export function inspectSlots(registry: SlotRegistry, catalogue: RemoteCatalogue): SlotInspectionPayload {
  const remotes = catalogue.inspectRemotes();
  const providers = new Map<string, InspectedRemote>();
  for (const remote of remotes) for (const component of remote.components) providers.set(component, remote);
  const waiting = remotes.filter((remote) => remote.status === 'waiting' || remote.status === 'not-available');

  const locations: Record<string, InspectedSlot[]> = {};
  const add = (location: SlotLocation, slot: Slot, source: InspectedSlot['source'], remoteName: string | null) => {
    const provider = remoteName === null ? providers.get(slot.component) : remotes.find((r) => r.name === remoteName);
    const problems: string[] = [];
    if (provider === undefined) {
      problems.push(
        waiting.length > 0
          ? `no remote known now provides "${slot.component}" (not answering: ${waiting.map((r) => r.name).join(', ')})`
          : `no remote provides "${slot.component}"`,
      );
    } else if (provider.status === 'waiting' || provider.status === 'not-available') {
      problems.push(`remote "${provider.name}" is not available${provider.reason ? `: ${provider.reason}` : ''}`);
    } else if (!provider.components.includes(slot.component)) {
      problems.push(`remote "${provider.name}" provides no component "${slot.component}"`);
    }
    (locations[location.value] ??= []).push({
      component: slot.component,
      props: slot.toEntry().props,
      remote: provider?.name ?? remoteName,
      source,
      visibility: location.isPublic() ? 'public' : 'protected',
      problems,
    });
  };
  for (const [location, slots] of registry.registeredByCode())
    for (const slot of slots) add(location, slot, 'code', null);
  for (const configured of catalogue.configuredSlots()) {
    add(configured.location, configured.slot, 'configuration', configured.remote);
  }
  return { locations, remotes };
}

/** `GET /api/slots/inspect`, for signed-in staff only (mount the session chain on its path first). */
export function addSlotInspectionRoute(router: IRouter, registry: SlotRegistry, catalogue: RemoteCatalogue): void {
  jsonRoute(router, '/api/slots/inspect', {
    GET: [requireSession, (_req, res) => void res.json(inspectSlots(registry, catalogue))],
  });
}
