import type { Request } from 'express';
import type { SlotMap } from '../../shared';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import { requestViewer } from '../slots/request-viewer';
import type { SlotsPayloadCache } from '../slots/slots-payload';
import { currentTenant } from '../auth/current-tenant';
import type { TenantStore } from '../tenants/tenant-store';
import type { MetaBodyCache } from './meta-body-cache';

/** What a visitor is served: the slots of their `/meta` (their rules applied) when signed in, else those of `/slots`. */
export interface ServedSlots {
  signedIn: boolean;
  slots: SlotMap;
}

export interface ServedSlotsSources {
  tenants: TenantStore;
  flags: FeatureFlagStore;
  metaBody: MetaBodyCache;
  slotsPayload: SlotsPayloadCache;
}

/**
 * The slots a request's visitor is served now, from the caches `/slots` and `/meta` answer from: the map is the same
 * object for every visitor whose rules come out the same, so what is derived from it can be kept per map.
 */
export async function servedSlots(req: Request, sources: ServedSlotsSources): Promise<ServedSlots> {
  if (!req.user) return { signedIn: false, slots: sources.slotsPayload.current().publicSlots };
  const context = await currentTenant(req, sources.tenants);
  const viewer = await requestViewer(context, sources.flags);
  return { signedIn: true, slots: sources.metaBody.slotMap(context.current, viewer) };
}
