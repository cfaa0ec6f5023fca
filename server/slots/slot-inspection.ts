import type { IRouter } from 'express';
import type { InspectedFormSlot, InspectedSlot, SlotInspectionPayload, SlotLocation } from '../../shared';
import { requireSession } from '../auth/require-session';
import { jsonRoute } from '../http/json-route';
import { inspectRemotes } from '../remotes/inspect-remotes';
import type { RemoteRegistry } from '../remotes/remote-registry';
import type { ResourceRegistry } from '../resources/resource-registry';
import { formSlots } from './code-slots';
import { placedSlots, type PlacedSlot, type SlotProblem } from './slot-contract';
import type { SlotRegistry } from './slot-registry';

/**
 * "Why is my component not on the page?", answered by the server: every slot of every location with where it
 * comes from (code or REMOTES_CONFIG), the remote that provides it, who may see it, and what stops it from
 * rendering (the same slot check as at start-up: unknown component, remote disabled or not answering, props
 * failing the schema); every remote with its entry, its status and the components that declare a props schema.
 * Configured slots that are left out are listed with the reason. The slots among each resource form's fields are
 * listed per resource, checked as the start-up checks them (their component must be a form component).
 */
export function inspectSlots(
  registry: SlotRegistry,
  resources: ResourceRegistry,
  remoteRegistry: RemoteRegistry,
): SlotInspectionPayload {
  const remotes = inspectRemotes(remoteRegistry);
  const contractRemotes = remoteRegistry.contractRemotes();
  const providers = new Map<string, string>();
  for (const remote of contractRemotes.known)
    for (const component of remote.components) providers.set(component, remote.name);

  /** The slot `placed` starts with (its content slots follow), as listed; null when there is none. */
  const inspect = (placed: PlacedSlot[], visibility: InspectedSlot['visibility']): InspectedSlot | null => {
    const [top] = placed;
    if (top === undefined) return null;
    const problems = remoteRegistry.contract.check(placed, contractRemotes);
    return {
      component: top.slot.component,
      props: top.slot.toEntry().props,
      remote:
        top.remote ?? providers.get(top.slot.component) ?? problems.find((p) => p.remote !== null)?.remote ?? null,
      source: top.source,
      visibility,
      problems: problems.map((problem) => describeProblem(problem, top)),
    };
  };

  const locations: Record<string, InspectedSlot[]> = {};
  const add = (location: SlotLocation, placed: PlacedSlot[]) => {
    const inspected = inspect(placed, location.isPublic() ? 'public' : 'protected');
    if (inspected !== null) (locations[location.value] ??= []).push(inspected);
  };
  for (const [location, slots] of registry.registeredByCode()) {
    slots.forEach((slot, index) => add(location, placedSlots(location.value, [slot], 'code', null, '', index)));
  }
  const counts = new Map<string, number>();
  for (const configured of remoteRegistry.configuredSlots()) {
    const index = counts.get(configured.location.value) ?? 0;
    counts.set(configured.location.value, index + 1);
    const { location, slot, remote } = configured;
    add(location, placedSlots(location.value, [slot], 'configuration', remote, '', index));
  }

  const forms: Record<string, InspectedFormSlot[]> = {};
  for (const resource of resources.list()) {
    for (const { index, placed } of formSlots(resource)) {
      const inspected = inspect([placed], 'protected'); // a form is only ever shown to signed-in staff
      if (inspected !== null) (forms[resource.name] ??= []).push({ ...inspected, position: index });
    }
  }
  return { locations, forms, remotes };
}

/** The problem as the inspector lists it under its slot: the prop path and message, or the content slot's. */
function describeProblem(problem: SlotProblem, top: PlacedSlot): string {
  const path = problem.path === null ? '' : `${problem.path} `;
  const inContent = problem.position === top.position ? '' : `content ${problem.component} (${problem.position}): `;
  return `${inContent}${path}${problem.message}`;
}

/** `GET /api/slots/inspect`, for signed-in staff only (mount the session chain on its path first). */
export function addSlotInspectionRoute(
  router: IRouter,
  registry: SlotRegistry,
  resources: ResourceRegistry,
  remoteRegistry: RemoteRegistry,
): void {
  jsonRoute(router, '/api/slots/inspect', {
    GET: [requireSession, (_req, res) => void res.json(inspectSlots(registry, resources, remoteRegistry))],
  });
}
