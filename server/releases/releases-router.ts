/*
 * Above 300 lines for one reason: the releases API is one surface with one set of guards (the team token for
 * publishing, releases:manage for the rest, the refusals' one JSON shape), which its routes share; each route is a
 * few lines that hand over to the release service, the rollout plans or the stores.
 */
import express, { type Request, type RequestHandler, type Router } from 'express';
import {
  isPlainObject,
  RELEASES_MANAGE,
  ROLLOUT_PLAN_ACTIONS,
  type AuditEntry,
  type AutomaticRollback,
  type ErrorBody,
  type RemoteHistoryPayload,
  type RemoteReleasesPayload,
  type RolloutPlanAction,
} from '../../shared';
import { currentTenant } from '../auth/current-tenant';
import { everyTenantRefusal, requirePermission } from '../auth/require-permission';
import { requireSession } from '../auth/require-session';
import { HttpError } from '../http/http-error';
import { jsonRoute } from '../http/json-route';
import { jsonObjectBody, requireJsonBody } from '../http/require-json-body';
import { previewsOf, setPreview } from './release-preview';
import { ReleaseRefusedError, type ReleaseService } from './release-service';
import type { ReleaseSnapshot } from './release-snapshot';
import type { ReleaseStore } from './release-store';
import { planOnWire } from './rollout-plan-store';
import { auditEntryShownTo, rolloutShownTo } from './shown-releases';
import { memberTenantsOf, readableTenantsFor, type ReadableTenants } from '../slots/shown-rule';
import type { RolloutPlans } from './rollout-plans';
import { staffOnly } from './staff-only';
import { tokenRefusalMessage } from './team-token-store';
import type { TeamTokenThrottle } from './team-token-throttle';
import type { TenantStore } from '../tenants/tenant-store';
import { traceOf } from '../observability/request-trace';
import { rolloutPlanSeenOf, rolloutSeenOf } from './rollout-seen';

export interface ReleasesRouterOptions {
  service: ReleaseService;
  store: ReleaseStore;
  snapshot: ReleaseSnapshot;
  /** The team tokens' check, limited per client in its failures. */
  tokens: TeamTokenThrottle;
  /** Whose permissions the session's routes check, in the current tenant. */
  tenants: TenantStore;
  bodyLimitBytes: number;
  rollouts: RolloutPlans;
  /** Whether the operators let the remote's team token start and steer its rollouts (`"teamRollouts"`). */
  teamRollouts: (remote: string) => boolean;
}

/**
 * The releases API. Publishing is the team's: `POST /api/remotes/<name>/releases` with its team token (a bearer
 * token, never a session). Everything else is an operator's, with their session: the releases and rollouts, the
 * history, activating, rolling back, the canary, and a preview of their own session only (not audited).
 */
export function createReleasesRouter(options: ReleasesRouterOptions): Router {
  const { service, store, snapshot, tokens, rollouts } = options;
  const router = express.Router();
  // releases:manage (operators): 401 for anonymous visitors, 403 for other staff, and for a team token (staff-only.ts).
  const requireOperator = staffOnly(
    requirePermission(RELEASES_MANAGE, options.tenants, { changesReachEveryTenant: true }),
  );
  // A preview changes only the operator's own session: the permission in the tenant worked in is enough.
  const requirePreviewer = staffOnly(requirePermission(RELEASES_MANAGE, options.tenants));
  const json = requireJsonBody(options.bodyLimitBytes);
  const operator = [requireOperator, ...json];
  const name = (req: Request): string => req.params.name as string;
  const actor = (req: Request): string => (req.user as Express.User).username;
  // Which tenants' ids the operator reads in a canary (shown-releases.ts).
  const readableBy = async (req: Request): Promise<ReadableTenants> =>
    readableTenantsFor(req, await currentTenant(req, options.tenants), options.tenants, RELEASES_MANAGE);
  // The same from the refusal of changes the releases list reads anyway: one who may change releases reads every id.
  const readableWith = async (req: Request, changesRefused: string | null): Promise<ReadableTenants> =>
    changesRefused === null ? null : memberTenantsOf(await currentTenant(req, options.tenants));

  // The token first, the body after: a request without a valid token is answered 401 (or 403) whatever it sends,
  // and its body is not read.
  const requireTeamToken: RequestHandler = async (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const checked = token === undefined ? { status: 'invalid' as const } : await tokens.check(req, res, token);
    if (checked.status !== 'valid') throw new HttpError('unauthenticated', tokenRefusalMessage(checked));
    if (checked.remote !== name(req)) {
      throw new HttpError('forbidden', `This token publishes releases of "${checked.remote}" only.`);
    }
    res.locals.publisher = `token:${checked.id}`;
    next();
  };
  const publish: RequestHandler = async (req, res) => {
    const body = jsonObjectBody(req);
    const publisher = res.locals.publisher as string;
    const { release, created } = await service.publish(name(req), body.version, body.entry, publisher, traceOf(req));
    res.status(created ? 201 : 200).json(release);
  };
  jsonRoute(router, '/api/remotes/:name/releases', { POST: [requireTeamToken, ...json, publish] });

  jsonRoute(router, '/api/remotes/releases', {
    GET: [
      requireOperator,
      async (req, res) => {
        const previews = previewsOf(req) ?? {};
        const names = new Set([...snapshot.releases().map((release) => release.remote)]);
        const lastChanges = await store.lastRolloutChanges();
        const rolledBack = await store.automaticRollbacks();
        const changesRefused = await everyTenantRefusal(RELEASES_MANAGE, req.user as Express.User, options.tenants);
        const readable = await readableWith(req, changesRefused);
        const payload: RemoteReleasesPayload = {
          ...(changesRefused === null ? {} : { changesRefused }),
          remotes: [...names].sort().map((remote) => ({
            remote,
            rollout: rolloutShownTo(snapshot.rollout(remote) ?? { remote, active: null, canary: null }, readable),
            releases: snapshot.releases().filter((release) => release.remote === remote),
            preview: previews[remote] ?? null,
            automaticRollback: automaticRollbackOf(lastChanges.get(remote)),
            automaticRollbacks: (rolledBack.get(remote) ?? []).flatMap((entry) => automaticRollbackOf(entry) ?? []),
            plan: planOf(remote),
          })),
        };
        res.setHeader('Cache-Control', 'no-store');
        res.json(payload);
      },
    ],
  });

  jsonRoute(router, '/api/remotes/:name/history', {
    GET: [
      requireOperator,
      async (req, res) => {
        const entries = await store.history(name(req));
        // Empty: a remote nobody changed yet, or a name this server knows nothing of (a typo), refused as a change is.
        if (entries.length === 0) service.refuseUnknownRemote(name(req));
        const readable = await readableBy(req);
        const payload: RemoteHistoryPayload = {
          remote: name(req),
          entries: entries.map((entry) => auditEntryShownTo(entry, readable)),
        };
        res.setHeader('Cache-Control', 'no-store');
        res.json(payload);
      },
    ],
  });

  jsonRoute(router, '/api/remotes/:name/activate', {
    POST: [
      ...operator,
      async (req, res) => {
        res.json(
          await service.activate(
            name(req),
            jsonObjectBody(req).version,
            actor(req),
            'activate',
            traceOf(req),
            rolloutSeenOf(req),
          ),
        );
      },
    ],
  });
  jsonRoute(router, '/api/remotes/:name/rollback', {
    POST: [
      ...operator,
      async (req, res) => {
        res.json(
          await service.activate(
            name(req),
            jsonObjectBody(req).version,
            actor(req),
            'rollback',
            traceOf(req),
            rolloutSeenOf(req),
          ),
        );
      },
    ],
  });
  jsonRoute(router, '/api/remotes/:name/deactivate', {
    // No body: the remote's name says everything.
    POST: [
      requireOperator,
      async (req, res) => {
        res.json(await service.serveOwnBuild(name(req), actor(req), rolloutSeenOf(req)));
      },
    ],
  });
  jsonRoute(router, '/api/remotes/:name/canary', {
    POST: [
      ...operator,
      async (req, res) => {
        res.json(await service.canary(name(req), jsonObjectBody(req), actor(req), traceOf(req), rolloutSeenOf(req)));
      },
    ],
    DELETE: [
      requireOperator,
      async (req, res) => {
        res.json(await service.endCanary(name(req), actor(req), rolloutSeenOf(req)));
      },
    ],
  });
  jsonRoute(router, '/api/remotes/:name/preview', {
    POST: [
      requirePreviewer,
      ...json,
      (req, res) => {
        const release = service.checkedRelease(name(req), jsonObjectBody(req).version);
        setPreview(req, release.remote, release.version);
        res.json({ remote: release.remote, preview: release.version });
      },
    ],
    // Ending one's own preview changes nothing for anyone else: any signed-in account may, its permission gone too.
    DELETE: [
      staffOnly(requireSession),
      (req, res) => {
        setPreview(req, name(req), null);
        res.json({ remote: name(req), preview: null });
      },
    ],
  });

  // Progressive rollouts: an operator's session, or the remote's team token where the operators allow it. A session
  // wins, as on every route of this API that a session serves (staff-only.ts): a signed-in request is its user's,
  // whatever Authorization header rides along (a proxy's Basic credentials, a browser extension's), and its token is
  // neither checked nor counted against the address's guesses.
  const rolloutActor: RequestHandler = (req, res, next) => {
    const header = req.get('authorization');
    if (req.user || header === undefined) {
      requireOperator(req, res, (error?: unknown) => {
        if (error === undefined) res.locals.rolloutActor = actor(req);
        next(error);
      });
      return;
    }
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    (token === undefined ? Promise.resolve({ status: 'invalid' as const }) : tokens.check(req, res, token)).then(
      (checked) => {
        if (checked.status !== 'valid') {
          next(new HttpError('unauthenticated', tokenRefusalMessage(checked)));
        } else if (checked.remote !== name(req)) {
          next(new HttpError('forbidden', `This token steers rollouts of "${checked.remote}" only.`));
        } else if (!options.teamRollouts(name(req))) {
          next(
            new HttpError(
              'forbidden',
              `The operators have not let the team of "${checked.remote}" roll it out with its token ("teamRollouts" ` +
                'in its REMOTES_CONFIG entry): an operator starts and steers its rollouts.',
            ),
          );
        } else {
          res.locals.rolloutActor = `token:${checked.id}`;
          next();
        }
      },
      next,
    );
  };
  const rolloutActorOf = (res: express.Response): string => res.locals.rolloutActor as string;
  const planOf = (remote: string) => {
    const plan = snapshot.rolloutPlans().find((each) => each.remote === remote);
    if (plan === undefined) return null;
    // What this host's last look found a running step waiting for: the page says it, rather than look stuck.
    const waiting = rollouts.waitingForVisitors(plan);
    return { ...planOnWire(plan), ...(waiting === undefined ? {} : { waitingForVisitors: waiting }) };
  };

  jsonRoute(router, '/api/remotes/:name/rollouts', {
    POST: [
      rolloutActor,
      ...json,
      async (req, res) => {
        const plan = await rollouts.startPlan(
          name(req),
          jsonObjectBody(req),
          rolloutActorOf(res),
          traceOf(req),
          rolloutSeenOf(req),
        );
        res.status(201).json(plan);
      },
    ],
  });
  jsonRoute(router, '/api/remotes/:name/rollouts/current', {
    GET: [
      rolloutActor,
      async (req, res) => {
        const plan = await rollouts.current(name(req));
        if (plan === undefined) {
          service.refuseUnknownRemote(name(req));
          throw new HttpError('not_found', `Remote "${name(req)}" has no rollout plan.`);
        }
        res.setHeader('Cache-Control', 'no-store');
        res.json(plan);
      },
    ],
  });
  jsonRoute(router, '/api/remotes/:name/rollouts/current/:action', {
    // No body: the path says everything.
    POST: [
      rolloutActor,
      async (req, res) => {
        const action = req.params.action as RolloutPlanAction;
        if (!ROLLOUT_PLAN_ACTIONS.includes(action)) {
          throw new HttpError('not_found', `No rollout action "${action}": ${ROLLOUT_PLAN_ACTIONS.join(', ')}.`);
        }
        res.json(await rollouts.act(name(req), action, rolloutActorOf(res), rolloutPlanSeenOf(req), traceOf(req)));
      },
    ],
  });

  // A refused release or change: 400 (404 for an unknown release) with the placements it would break.
  router.use(((error, _req, res, next) => {
    if (!(error instanceof ReleaseRefusedError)) {
      next(error);
      return;
    }
    const code = error.status === 404 ? 'not_found' : error.status === 409 ? 'conflict' : 'invalid_request';
    const body: ErrorBody = { error: { code, message: error.message } };
    if (error.problems.length > 0) body.error.problems = error.problems;
    if (Object.keys(error.fields).length > 0) body.error.fields = { ...error.fields };
    res.status(error.status).json(body);
  }) as express.ErrorRequestHandler);
  return router;
}

/** The automatic rollback `entry` audited (its canary's version, when, what was measured), if it is one. */
function automaticRollbackOf(entry: AuditEntry | undefined): AutomaticRollback | null {
  // A progressive rollout's canary rolled back for being worse is one too (its plan says so as well).
  if (entry?.action !== 'canary-auto-rollback' && entry?.action !== 'rollout-rolled-back') return null;
  const canary = isPlainObject(entry.before) && isPlainObject(entry.before.canary) ? entry.before.canary : {};
  const reason = isPlainObject(entry.after) ? entry.after.reason : undefined;
  return {
    version: typeof canary.version === 'string' ? canary.version : '',
    at: entry.at,
    reason: typeof reason === 'string' ? reason : '',
  };
}
