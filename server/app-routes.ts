import type { RequestListener, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import { PLACEMENTS_API_PATH, SESSION_TIME_PATH, SLOT_EVENTS_PATH, SLOT_STATS_PATH } from '../shared';
import type { AppModule } from './app-module';
import type { ReadinessReport } from './readiness-checks';
import type { AppSettings } from './app-options';
import type { AuthModule } from './auth/auth-module';
import { createHealthRouter } from './health/health-router';
import { createErrorHandler } from './http/error-handler';
import { serveHttp2Through } from './http/http2-express';
import { inSeries } from './http/in-series';
import { notFoundHandler } from './http/not-found-handler';
import { refuseUndecodableQuery } from './http/query-parameters';
import type { PlainHandler } from './http/plain-handler';
import { createTrustProxyHopCheck } from './http/trust-proxy-hop-check';
import { createHttpMetrics } from './observability/http-metrics';
import type { MetricsRegistry } from './observability/metrics-registry';
import { METRICS_PATH, metricsRoute } from './observability/metrics-route';
import { requestLogging } from './observability/request-logging';
import type { ServerLifecycle } from './process/server-lifecycle';
import type { PlacementsModule } from './placements/placements-module';
import type { RemotesModule } from './remotes/remotes-module';
import { createApiSecurityHeaders } from './security/api-security-headers';
import { requireHostHeader } from './http/host-header';
import { createCrossSiteGuard } from './security/cross-site-guard';
import { createSecurityHeadersFollowing } from './security/security-headers';
import { createPublicFastPath, type FastPath } from './slots/public-fast-path';
import type { TrustProxyFn } from './http/client-address';
import { SLOTS_PATH } from './slots/slots-router';
import type { SlotsModule } from './slots/slots-module';
import type { StorageEngine } from './storage/storage-engine';

/**
 * Paths whose requests load the session; the rest (health, /slots, static files) never touch the store. The busiest
 * come first: a router layer tries its paths in order. Sign-in and sign-out are not among them: only their POSTs
 * (SIGN_IN_OUT_PATHS) load it, so a browser opening /login gets its page even when the store fails.
 */
const SESSION_PATHS = [
  '/meta',
  '/api/resources',
  '/me',
  '/tenant',
  SESSION_TIME_PATH,
  '/api/slots',
  '/api/remotes',
  SLOT_EVENTS_PATH,
  SLOT_STATS_PATH,
  '/api/locations',
  PLACEMENTS_API_PATH,
];

/**
 * The API of sign-in and sign-out is their POST. A GET there needs no session of this step: `GET /login` is the
 * sign-in page (served with the host's pages, and their session step), so is a browser's `GET /logout` (the
 * sign-out page, which asks first); an API client's gets a 405.
 */
const SIGN_IN_OUT_PATHS = ['/login', '/logout'];

/** What the shared pipeline needs besides the modules' own routes. */
export interface AppRouteParts {
  lifecycle: ServerLifecycle;
  storage: StorageEngine;
  /** Where the routes' measurements go, with `settings.metrics` (app.metrics). */
  metrics: MetricsRegistry;
  /** Every module, in the app's order: their routes are mounted in it. */
  modules: readonly AppModule[];
  /** The session step. */
  auth: AuthModule;
  /** `GET /slots`, which the public fast path answers before Express. */
  slots: SlotsModule;
  /** The CSP of documents follows the remotes served. */
  remotes: RemotesModule;
  /** Told of every request first: its watch of the rules' names starts with the first (PlacementsModule). */
  placements: PlacementsModule;
  /** GET /readyz's checks by name. */
  readinessChecks: () => Promise<ReadinessReport>;
}

/**
 * The shared pipeline: what every request runs, the routes every visitor reaches before the session step, the
 * session step, the modules' API routes in their order (the busiest first: every router a request passes on its way
 * costs it time), health, then the documents' security headers, the modules' documents and files, then the 404 and
 * error answers. In front of it, the public fast path answers `GET /slots` before Express's router
 * (slots/public-fast-path.ts).
 */
export function createAppRoutes(parts: AppRouteParts, settings: AppSettings): AppRoutes {
  const { logger } = settings;
  const app = express();
  app.disable('x-powered-by');
  // ETags are computed where they pay off (/slots), not over every JSON body.
  app.set('etag', false);
  app.set('env', settings.nodeEnv);
  app.set('trust proxy', settings.trustProxy);

  // Once draining, every answer asks the client to reconnect elsewhere (checked when its headers are written).
  parts.lifecycle.closeConnectionsOf(app.response);
  const httpMetrics = settings.metrics ? createHttpMetrics(parts.metrics) : undefined;
  // The part of what every request runs that needs nothing of Express: the public fast path runs it too, but for
  // the request id without LOG_REQUESTS, which it gives itself.
  const startNotice = requestStartNotice(parts.storage);
  const logging = requestLogging(app, logger, settings.logRequests, parts.lifecycle);
  const hopCheck = createTrustProxyHopCheck(settings.trustProxy, logger);
  const plainPrelude = [...startNotice, logging, ...hopCheck];
  // What every request runs, as one router layer (each layer costs every request a few allocations).
  app.use(
    inSeries([
      // First: its clock covers everything the request runs.
      ...(httpMetrics ? [httpMetrics.middleware] : []),
      ...plainPrelude,
      // The API answers JSON: a small header set. Documents and files get helmet's full set, below.
      createApiSecurityHeaders(),
      requireHostHeader,
      // The product's own pages (PUBLIC_URL) are no other site, even behind a proxy that rewrites Host; with it, a
      // page at another address (a name made to point at the server) is no longer taken for them.
      createCrossSiteGuard({ allowedOrigins: settings.allowedOrigins, publicOrigin: settings.publicOrigin }),
      ...settings.beforeRoutes,
    ]),
  );
  for (const module of parts.modules) module.mountPublic?.(app);
  // Only with METRICS_TOKEN: without it, /metrics is not a route here (404), and is served on METRICS_PORT if at all.
  if (settings.metrics?.token !== undefined) app.get(METRICS_PATH, metricsRoute(parts.metrics, settings.metrics.token));
  const apiSessionChain = parts.auth.sessionChain();
  // Before the session is loaded: a query that does not decode is refused without a read of the store. Pages keep
  // theirs (the host reads its own query, leniently as browsers do); `/slots` reads none (the public fast path).
  app.use(SESSION_PATHS, refuseUndecodableQuery, apiSessionChain);
  // One route per path, so that an answer of the session step (its store down: 503) is named by its own path.
  for (const path of SIGN_IN_OUT_PATHS) app.post(path, apiSessionChain);
  for (const module of parts.modules) module.mountRoutes?.(app);
  app.use(createHealthRouter(parts.readinessChecks));
  // Documents and files (host shell, assets, remote bundles) and whatever no route answered: helmet's full set,
  // with the CSP that lets the host page load the remotes.
  app.use(createSecurityHeadersFollowing(parts.remotes.registry, parts.remotes.policies));
  for (const module of parts.modules) module.mountFiles?.(app);
  app.use(notFoundHandler);
  app.use(createErrorHandler(logger));
  // HTTP/2 requests (TLS_CERT_FILE) get Express's additions on node:http2's own objects; the drain applies to them too.
  parts.lifecycle.closeConnectionsOf(serveHttp2Through(app).response as ServerResponse);

  const { placements } = parts;
  // An embedding application's own middleware may do anything to any request: then every request goes through it.
  if (!settings.publicFastPath || settings.beforeRoutes.length > 0) {
    return {
      express: app,
      listener: (req, res) => {
        placements.noteRequest();
        app(req, res);
      },
    };
  }
  const fastPath = createPublicFastPath({
    prelude: [...startNotice, ...(settings.logRequests ? [logging] : []), ...hopCheck],
    timer: httpMetrics?.answerTimer(SLOTS_PATH) ?? null,
    trustProxy: app.get('trust proxy fn') as TrustProxyFn,
    lifecycle: parts.lifecycle,
    slots: parts.slots.payload,
    nameTracedRoute: settings.nameTracedRoute,
  });
  return {
    express: app,
    listener: (req, res) => {
      placements.noteRequest();
      if (!fastPath(req, res)) app(req, res);
    },
    answerAtOnce: (req, res) => {
      placements.noteRequest();
      return fastPath(req, res);
    },
  };
}

/** The app's request listener, and the Express application behind it. */
export interface AppRoutes {
  /** What the HTTP server calls: the public fast path (when on), then Express for everything it did not answer. */
  listener: RequestListener;
  express: Express;
  /**
   * The public fast path alone, when on: the part of `listener` that answers a request before it returns (FastPath),
   * which the tracing runs without carrying its context (tracedRequestListener).
   */
  answerAtOnce?: FastPath;
}

/**
 * Tells the engine that a request started, so change-stamp reads sent before it do not serve it
 * (PostgresEngine.changeStamp). SQLite needs nothing: no middleware for it.
 */
function requestStartNotice(storage: StorageEngine): PlainHandler[] {
  if (storage.kind === 'sqlite') return [];
  return [
    (_req, _res, next) => {
      storage.noteRequestStart();
      next();
    },
  ];
}
