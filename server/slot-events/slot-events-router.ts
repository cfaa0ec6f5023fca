import express, { type Request, type Router } from 'express';
import {
  SLOT_EVENTS_MAX_BODY_BYTES,
  SLOT_EVENTS_PATH,
  SLOT_STATS_PATH,
  SLOT_STATS_WINDOWS,
  type SlotLoadEvent,
  type SlotStatsPayload,
  type SlotStatsWindow,
} from '../../shared';
import { currentTenant } from '../auth/current-tenant';
import { HttpError } from '../http/http-error';
import { jsonRoute } from '../http/json-route';
import { refuseUnknownQueryParameters } from '../http/query-parameters';
import { requireJsonBody } from '../http/require-json-body';
import type { ServedSlots } from '../meta/served-slots';
import type { TenantStore } from '../tenants/tenant-store';
import { isKnownSlot, slotEventsOf, type SlotEventSubjects } from './slot-event-check';
import type { SlotEventLimits } from './slot-event-limits';
import type { SlotLoadAggregator } from './slot-load-aggregator';
import type { SlotVisitor } from './visitor-id';

export interface SlotEventsRouterOptions {
  aggregator: SlotLoadAggregator;
  limits: SlotEventLimits;
  subjects: SlotEventSubjects;
  /** The slots the request's visitor is served now: their `/meta`'s when signed in, else those of `/slots`. */
  servedSlots(req: Request): Promise<ServedSlots>;
  /** The release of `remote` the request's visitor is served now ('' when the remote has none in force). */
  releaseOf(req: Request, remote: string): string;
  /**
   * The release an event's page runs: the one its signed `releaseTag` names, else releaseOf's; null when the event is
   * not to be counted (a running canary's tag from a visitor it is not served to).
   */
  releaseOfEvent(req: Request, event: SlotLoadEvent): string | null;
  /** Who the request's visitor is: its account when signed in, else its address (visitor-id.ts). */
  visitorOf(req: Request): SlotVisitor;
  /** The statistics are staff's: an account of no tenant is refused them, as everything a member reads. */
  tenants: TenantStore;
}

/**
 * `POST /api/slot-events`: the host page's beacons, one event per slot load. The cross-site guard (before every
 * route) refuses other sites; the body is capped at 12 KiB and 50 events; the events are limited per session and
 * address; each is tagged with the visitor's tenant and the release its page runs (a release tag this server signed,
 * else the one it serves them now), and counted in memory (slot-load-aggregator.ts): the answer, 204, never waits
 * for the database. Only loads the visitor could
 * have made are counted (slot-event-check.ts `isKnownSlot`): the others are left out without a word.
 *
 * `GET /api/slot-stats?window=5m|1h|1d`: the load statistics of every remote release, location and component, for
 * signed-in staff (the inspector, the releases page): the signed-in staff's loads and distinct visitors as the
 * health figures, those of visitors not signed in apart (`anonymous`: anyone can send them).
 */
export function createSlotEventsRouter(options: SlotEventsRouterOptions): Router {
  const router = express.Router();
  jsonRoute(router, SLOT_EVENTS_PATH, {
    POST: [
      ...requireJsonBody(SLOT_EVENTS_MAX_BODY_BYTES),
      async (req, res) => {
        const events = slotEventsOf(req.body);
        const refused = await options.limits.take(req, events.length);
        if (refused) {
          res.setHeader('Retry-After', String(refused.retryAfterSeconds));
          throw new HttpError('too_many_requests', 'Too many slot events from this client. Try again later.');
        }
        const tenant = req.session?.tenant ?? null;
        const visitor = options.visitorOf(req);
        const served = await options.servedSlots(req);
        for (const event of events) {
          const release = options.releaseOfEvent(req, event);
          if (release !== null && isKnownSlot(event, release, options.subjects, served)) {
            options.aggregator.record({ ...event, tenant, release, visitor });
          }
        }
        res.status(204).end();
      },
    ],
  });
  jsonRoute(router, SLOT_STATS_PATH, {
    GET: async (req, res) => {
      await currentTenant(req, options.tenants);
      refuseUnknownQueryParameters(req, ['window'], 'the slot statistics route');
      const window = req.query.window ?? '1h';
      if (typeof window !== 'string' || !Object.hasOwn(SLOT_STATS_WINDOWS, window)) {
        throw HttpError.invalidRequest(`"window" must be one of ${Object.keys(SLOT_STATS_WINDOWS).join(', ')}.`);
      }
      const [{ stats, releases }, anonymous] = await Promise.all([
        options.aggregator.stats(window as SlotStatsWindow, 'staff'),
        options.aggregator.stats(window as SlotStatsWindow, 'anonymous'),
      ]);
      const served = Object.fromEntries(
        [...new Set([...stats, ...anonymous.stats].map((row) => row.remote))].map((remote) => [
          remote,
          options.releaseOf(req, remote),
        ]),
      );
      const payload: SlotStatsPayload = { window: window as SlotStatsWindow, stats, releases, served, anonymous };
      res.setHeader('Cache-Control', 'no-store');
      res.json(payload);
    },
  });
  return router;
}
