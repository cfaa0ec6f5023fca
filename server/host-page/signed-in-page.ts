import type { Request } from 'express';
import { mePayload } from '../auth/me-payload';
import { sessionTimeOf, type SessionLimits } from '../auth/session-time';
import type { MetaBodyCache } from '../meta/meta-body-cache';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import { requestViewer } from '../slots/request-viewer';
import { currentTenant } from '../auth/current-tenant';
import { sessionUnknown } from '../auth/session-chain';
import type { TenantStore } from '../tenants/tenant-store';
import { NOBODY_SIGNED_IN, type SignedInPage } from './session-boot-data';

/** Where a signed-in page's session data comes from: the same caches GET /me and GET /meta answer from. */
export interface SignedInPageSources {
  tenants: TenantStore;
  flags: FeatureFlagStore;
  metaBody: MetaBodyCache;
  sessionLimits: SessionLimits;
}

/**
 * The session data a signed-in page request's page carries for its user (what GET /me and GET /meta answer);
 * NOBODY_SIGNED_IN for a request without a session (GET /me would answer 401); else null: its session not loaded (the
 * store failing), a member of no tenant, or the database not answering. The page then asks GET /me, whose answer says why.
 */
export async function signedInPage(
  req: Request,
  sources: SignedInPageSources,
): Promise<SignedInPage | typeof NOBODY_SIGNED_IN | null> {
  const user = req.user;
  if (!user) return sessionUnknown(req) ? null : NOBODY_SIGNED_IN;
  try {
    const context = await currentTenant(req, sources.tenants);
    const viewer = await requestViewer(context, sources.flags);
    return {
      me: mePayload(user, context, sessionTimeOf(req, sources.sessionLimits)),
      meta: await sources.metaBody.body(context.current, viewer),
      // Only what this user's /meta carries: a slot hidden by its rule gives no hint of its component either.
      slots: sources.metaBody.slotMap(context.current, viewer),
    };
  } catch {
    return null;
  }
}
