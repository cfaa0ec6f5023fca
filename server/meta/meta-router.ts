import type { IRouter } from 'express';
import { requireSession } from '../auth/require-session';
import { jsonRoute } from '../http/json-route';
import { sendJsonBytes } from '../http/send-json';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import { requestViewer } from '../slots/request-viewer';
import { currentTenant } from '../auth/current-tenant';
import type { TenantStore } from '../tenants/tenant-store';
import type { MetaBodyCache } from './meta-body-cache';

export interface MetaRouteOptions {
  body: MetaBodyCache;
  tenants: TenantStore;
  flags: FeatureFlagStore;
}

/**
 * `GET /meta`: dashboards, modules and the slots of every location, for signed-in users only (mount the session
 * chain on `/meta` before it). The body is cached as bytes (per tenant, rebuilt when dashboards, modules or slots
 * change), so a request only picks the tenant's.
 *
 * Added to the app itself rather than to a router of its own: every signed-in page asks for it, and should not pay
 * for entering one more router.
 */
export function addMetaRoute(router: IRouter, options: MetaRouteOptions): void {
  jsonRoute(router, '/meta', {
    GET: [
      requireSession,
      async (req, res) => {
        const context = await currentTenant(req, options.tenants);
        // `Cache-Control: private, no-store` is already set: the session chain marks every answer of its paths.
        const viewer = await requestViewer(context, options.flags);
        sendJsonBytes(res, await options.body.body(context.current, viewer));
      },
    ],
  });
}
