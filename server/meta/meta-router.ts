import express, { type Router } from 'express';
import { requireSession } from '../auth/require-session';
import { jsonRoute } from '../http/json-route';
import { sendJsonText } from '../http/send-json';
import type { SlotsJsonCache } from '../slots/slots-json-cache';
import { currentTenant } from '../tenants/current-tenant';
import type { TenantStore } from '../tenants/tenant-store';
import type { DashboardRegistry } from './dashboard-registry';
import type { ModuleRegistry } from './module-registry';

export interface MetaRouterOptions {
  slots: SlotsJsonCache;
  modules: ModuleRegistry;
  dashboards: DashboardRegistry;
  tenants: TenantStore;
}

/**
 * `GET /meta`: dashboards, modules and the slots of every location, for signed-in users only. Each part is cached
 * JSON text (slots per registry version, modules per definition change, dashboards per tenant until records
 * change), so a request only concatenates three strings.
 */
export function createMetaRouter(options: MetaRouterOptions): Router {
  const router = express.Router();
  jsonRoute(router, '/meta', {
    GET: [
      requireSession,
      (req, res) => {
        const { current } = currentTenant(req, options.tenants);
        const body =
          `{"dashboards":${options.dashboards.json(current)},` +
          `"modules":${options.modules.json()},` +
          `"slots":${options.slots.current().allSlots}}`;
        res.setHeader('Cache-Control', 'private, no-store');
        sendJsonText(res, body);
      },
    ],
  });
  return router;
}
