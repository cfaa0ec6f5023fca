import type { IRouter } from 'express';
import {
  DEFAULT_SLOT_PRIORITY,
  SlotLocation,
  type CatalogueLocation,
  type CatalogueSlot,
  type LocationsPayload,
} from '../../shared';
import { requireSession } from '../auth/require-session';
import { jsonRoute } from '../http/json-route';
import type { RemoteRegistry } from '../remotes/remote-registry';
import { currentTenant } from '../auth/current-tenant';
import type { TenantStore } from '../tenants/tenant-store';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import { requestViewer } from '../slots/request-viewer';
import type { LocationAllowLists } from '../slots/location-allow-lists';
import type { PlacedSlotInfo, SlotRegistry } from '../slots/slot-registry';
import { ruleShowerFor, type ShowRule } from '../slots/shown-rule';
import { ruleHolds, type Viewer } from '../slots/visibility-rule';

export interface LocationCatalogueSources {
  slots: SlotRegistry;
  remoteRegistry: RemoteRegistry;
  allowLists: LocationAllowLists;
  flags: FeatureFlagStore;
}

/**
 * Every location (in table order) with its visibility, its context props, the remotes allowed to fill it, and the
 * slots that fill it now in resolved order, each with its placement and rule: the map of the admin interface that
 * staff read before placing a component. Props are never listed (the inspector shows those the user may see), nor
 * the ids of tenants the user may not read in a rule (`showRule`: shown-rule.ts).
 */
export function locationCatalogue(
  sources: LocationCatalogueSources,
  viewer: Viewer,
  showRule: ShowRule,
): LocationsPayload {
  const providers = new Map<string, string>();
  for (const remote of sources.remoteRegistry.contractRemotes().known) {
    for (const component of remote.components) providers.set(component, remote.name);
  }
  const placed = sources.slots.placed();
  const locations = SlotLocation.cases().map(
    (location): CatalogueLocation => ({
      location: location.value,
      visibility: location.isPublic() ? 'public' : 'protected',
      contextProps: [...location.contextProps],
      allowedRemotes: sources.allowLists.allowed(location)?.slice() ?? null,
      slots: (placed.get(location) ?? []).map((info) => catalogueSlot(info, providers, viewer, showRule)),
    }),
  );
  return { locations };
}

function catalogueSlot(
  info: PlacedSlotInfo,
  providers: ReadonlyMap<string, string>,
  viewer: Viewer,
  showRule: ShowRule,
): CatalogueSlot {
  const { slot } = info;
  const { before, after, visibleWhen } = slot.placement;
  return {
    id: info.id,
    component: slot.component,
    remote: info.remote ?? providers.get(slot.component) ?? null,
    source: info.source,
    priority: slot.placement.priority ?? DEFAULT_SLOT_PRIORITY,
    ...(before === undefined ? {} : { before }),
    ...(after === undefined ? {} : { after }),
    ...(visibleWhen === undefined ? {} : { visibleWhen: showRule(visibleWhen) }),
    visibleToYou: visibleWhen === undefined || ruleHolds(visibleWhen, viewer),
  };
}

/**
 * `GET /api/locations`, for signed-in staff (mount the session chain on its path first): 401 signed out, 403 for an
 * account of no tenant, as `/meta`.
 */
export function addLocationCatalogueRoute(
  router: IRouter,
  sources: LocationCatalogueSources,
  tenants: TenantStore,
): void {
  jsonRoute(router, '/api/locations', {
    GET: [
      requireSession,
      async (req, res) => {
        const context = await currentTenant(req, tenants);
        const showRule = await ruleShowerFor(req, context, tenants);
        res.json(locationCatalogue(sources, await requestViewer(context, sources.flags), showRule));
      },
    ],
  });
}
