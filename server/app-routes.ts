import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type Express, type Request, type RequestHandler } from 'express';
import { PLACEMENTS_API_PATH, SESSION_TIME_PATH, SLOT_EVENTS_PATH, SLOT_STATS_PATH } from '../shared';
import type { AppSettings } from './app-options';
import { createAuthRouter } from './auth/auth-router';
import { createPassport } from './auth/create-passport';
import { CredentialChecker } from './auth/credential-checker';
import type { LoginRateLimiter } from './auth/login-rate-limit/login-rate-limiter';
import { createLoginThrottle } from './auth/login-rate-limit/login-throttle';
import { createSessionChain } from './auth/session-chain';
import type { UserStore } from './auth/user-store';
import { createTrustProxyHopCheck } from './http/trust-proxy-hop-check';
import { createHealthRouter } from './health/health-router';
import { CLIENT_ROUTES, createHostPageRouter, type SignedInPage } from './host-page/host-page-router';
import { createErrorHandler } from './http/error-handler';
import { serveHttp2Through } from './http/http2-express';
import { inSeries } from './http/in-series';
import { notFoundHandler } from './http/not-found-handler';
import type { PlainHandler } from './http/plain-handler';
import { createPublicFastPath, type TrustProxyFn } from './slots/public-fast-path';
import { requestLogging } from './observability/request-logging';
import type { MetaBodyCache } from './meta/meta-body-cache';
import { servedSlots } from './meta/served-slots';
import { addMetaRoute } from './meta/meta-router';
import { createHttpMetrics } from './observability/http-metrics';
import type { MetricsRegistry } from './observability/metrics-registry';
import { METRICS_PATH, metricsRoute } from './observability/metrics-route';
import { createSignInMetrics } from './auth/sign-in-metrics';
import { createPlacementsRouter } from './placements/placements-router';
import type { PlacementsService } from './placements/placements-service';
import type { PlacementsStore } from './placements/placements-store';
import type { ServerLifecycle } from './process/server-lifecycle';
import { createRemotesRouter, type RemoteRegistry } from './remotes';
import { createPreviewSecurityHeaders } from './releases/preview-security-headers';
import { createReleasesRouter } from './releases/releases-router';
import type { ReleaseService } from './releases/release-service';
import type { ReleaseSnapshot } from './releases/release-snapshot';
import type { ReleaseStore } from './releases/release-store';
import { remotesForRequest } from './releases/remotes-for-request';
import type { TeamTokenStore } from './releases/team-token-store';
import type { ResourceRegistry } from './resources/resource-registry';
import { createResourcesRouter } from './resources/resources-router';
import type { StoredRecordSource } from './resources/stored-record-source';
import { createApiSecurityHeaders } from './security/api-security-headers';
import { ContentSecurityPolicies } from './security/content-security-policy';
import { createCrossSiteGuard } from './security/cross-site-guard';
import { createSecurityHeadersFollowing } from './security/security-headers';
import type { SlotEvents } from './slot-events/slot-events';
import { createSlotEventsRouter } from './slot-events/slot-events-router';
import { addLocationCatalogueRoute } from './slot-check/location-catalogue';
import type { LocationAllowLists } from './slots/location-allow-lists';
import type { FeatureFlagStore } from './flags/feature-flag-store';
import { addSlotInspectionRoute } from './slot-check/slot-inspection';
import type { SlotRegistry } from './slots/slot-registry';
import { addSlotSchemasRoute } from './slot-check/slot-schemas-router';
import type { SlotsPayloadCache } from './slots/slots-payload';
import { addSlotsRoute, SLOTS_PATH } from './slots/slots-router';
import type { SessionStorage } from './storage/session-storage';
import type { StorageEngine } from './storage/storage-engine';
import type { TenantStore } from './tenants/tenant-store';

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

/** What the routes serve: the app's stores, registries and caches. */
export interface AppRouteParts {
  lifecycle: ServerLifecycle;
  storage: StorageEngine;
  users: UserStore;
  tenants: TenantStore;
  records: StoredRecordSource;
  sessions: SessionStorage;
  loginRateLimiter: LoginRateLimiter;
  slots: SlotRegistry;
  slotsPayload: SlotsPayloadCache;
  resources: ResourceRegistry;
  metaBody: MetaBodyCache;
  remoteRegistry: RemoteRegistry;
  /** Where the routes' measurements go, with `settings.metrics` (app.metrics). */
  metrics: MetricsRegistry;
  allowLists: LocationAllowLists;
  flags: FeatureFlagStore;
  releases: ReleaseStore;
  teamTokens: TeamTokenStore;
  releaseSnapshot: ReleaseSnapshot;
  releaseService: ReleaseService;
  slotEvents: SlotEvents;
  placements: PlacementsService;
  placementsStore: PlacementsStore;
  /** GET /readyz's checks by name. */
  readinessChecks: () => Promise<Record<string, 'ok' | 'failing'>>;
  /** The session data a signed-in page carries. */
  signedInPage: (req: Request) => Promise<SignedInPage | null>;
}

/**
 * The Express application: what every request runs, then the routes, busiest first (every router a request passes
 * on its way costs it time), then the host's documents and files, then the 404 and error answers. In front of it,
 * the public fast path answers `GET /slots` before Express's router (http/public-fast-path.ts).
 */
export function createAppRoutes(parts: AppRouteParts, settings: AppSettings): AppRoutes {
  const { logger, development } = settings;
  const authenticator = createPassport(parts.users, new CredentialChecker(parts.users, settings.passwordHashParams));
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
      createCrossSiteGuard({ allowedOrigins: settings.allowedOrigins }),
      ...settings.beforeRoutes,
    ]),
  );
  addSlotsRoute(app, parts.slotsPayload);
  // Only with METRICS_TOKEN: without it, /metrics is not a route here (404), and is served on METRICS_PORT if at all.
  if (settings.metrics?.token !== undefined) app.get(METRICS_PATH, metricsRoute(parts.metrics, settings.metrics.token));
  if (settings.metrics) {
    const signIns = createSignInMetrics(parts.metrics);
    app.post('/login', signIns.login);
    app.post('/logout', signIns.logout);
  }
  const sessionOptions = {
    store: parts.sessions.store,
    secrets: settings.secrets,
    authenticator,
    idleMs: settings.idleMs,
    absoluteMs: settings.absoluteMs,
    now: settings.now,
  };
  const apiSessionChain = createSessionChain(sessionOptions);
  app.use(SESSION_PATHS, apiSessionChain);
  // One route per path, so that an answer of the session step (its store down: 503) is named by its own path.
  for (const path of SIGN_IN_OUT_PATHS) app.post(path, apiSessionChain);
  // Before the auth routes: /meta is what every signed-in page asks for.
  addMetaRoute(app, { body: parts.metaBody, tenants: parts.tenants, flags: parts.flags });
  app.use(
    createAuthRouter({
      authenticator,
      tenants: parts.tenants,
      now: settings.now,
      idleMs: settings.idleMs,
      absoluteMs: settings.absoluteMs,
      bodyLimitBytes: settings.bodyLimitBytes,
      beforeLogin: [createLoginThrottle(parts.loginRateLimiter), ...settings.beforeLogin],
    }),
  );
  app.use(
    createResourcesRouter({
      resources: parts.resources,
      records: parts.records,
      tenants: parts.tenants,
      bodyLimitBytes: settings.bodyLimitBytes,
    }),
  );
  app.use(
    createReleasesRouter({
      service: parts.releaseService,
      store: parts.releases,
      snapshot: parts.releaseSnapshot,
      tokens: parts.teamTokens,
      tenants: parts.tenants,
      bodyLimitBytes: settings.bodyLimitBytes,
    }),
  );
  app.use(
    createPlacementsRouter({
      service: parts.placements,
      store: parts.placementsStore,
      tenants: parts.tenants,
      flags: parts.flags,
    }),
  );
  app.use(
    createSlotEventsRouter({
      aggregator: parts.slotEvents.aggregator,
      limits: parts.slotEvents.limits,
      subjects: parts.slotEvents.subjects,
      servedSlots: (req) => servedSlots(req, parts),
      releaseOf: (req, remote) => parts.slotEvents.releaseOf(req, remote),
      releaseOfEvent: (req, event) => parts.slotEvents.releaseOfEvent(req, event.remote, event.releaseTag),
    }),
  );
  addSlotInspectionRoute(
    app,
    parts.slots,
    parts.resources,
    parts.remoteRegistry,
    parts.tenants,
    parts.allowLists,
    parts.flags,
  );
  addLocationCatalogueRoute(
    app,
    { slots: parts.slots, remoteRegistry: parts.remoteRegistry, allowLists: parts.allowLists, flags: parts.flags },
    parts.tenants,
  );
  // Development servers only: the schemas the host checks props against before rendering a slot.
  if (development) addSlotSchemasRoute(app, parts.remoteRegistry);
  app.use(createHealthRouter(parts.readinessChecks));
  // Documents and files (host shell, assets, remote bundles) and whatever no route answered: helmet's full set,
  // with the CSP that lets the host page load the remotes.
  const policies = new ContentSecurityPolicies();
  app.use(createSecurityHeadersFollowing(parts.remoteRegistry, policies));
  const { distDir, sourceMaps } = settings;
  // Placeholders naming components, remotes and errors follow the server's mode, never the host's build mode.
  const showSlotDetails = development;
  // Per request: a visitor in a canary, or an operator previewing, gets their release's entry.
  const forRequest = (req: Request) => remotesForRequest(req, parts.remoteRegistry, parts.releaseSnapshot);
  app.use(createRemotesRouter({ distDir, registry: parts.remoteRegistry, sourceMaps, showSlotDetails, forRequest }));
  // The host's pages know their visitor: a signed-in one's page carries their session data and slot data (exact
  // routes only, so the host's files never load a session). One route per path, as the host's page router has them:
  // a request is named by its own page's path (`GET /login`), never by all of them joined.
  const pageSessionChain = createSessionChain(sessionOptions, { for: 'page' });
  // An operator's previews: their pages' CSP allows the previewed releases' origins too.
  const previewHeaders = createPreviewSecurityHeaders(parts.remoteRegistry, parts.releaseSnapshot, policies);
  for (const clientRoute of CLIENT_ROUTES) app.get(clientRoute, pageSessionChain, previewHeaders);
  app.use(
    createHostPageRouter({
      distDir,
      sourceMaps,
      remotes: (req) => forRequest(req) ?? parts.remoteRegistry.remotes(),
      showSlotDetails,
      // Public slots only: the boot data inlined into index.html is served to anonymous visitors.
      publicSlots: () => parts.slotsPayload.current().publicSlots,
      signedIn: parts.signedInPage,
    }),
  );
  app.use(notFoundHandler);
  app.use(createErrorHandler(logger));
  // HTTP/2 requests (TLS_CERT_FILE) get Express's additions on node:http2's own objects; the drain applies to them too.
  parts.lifecycle.closeConnectionsOf(serveHttp2Through(app).response as ServerResponse);

  // An embedding application's own middleware may do anything to any request: then every request goes through it.
  if (!settings.publicFastPath || settings.beforeRoutes.length > 0) return { express: app, listener: app };
  const fastPath = createPublicFastPath({
    prelude: [
      ...(httpMetrics ? [httpMetrics.timeAs(SLOTS_PATH)] : []),
      ...startNotice,
      ...(settings.logRequests ? [logging] : []),
      ...hopCheck,
    ],
    trustProxy: app.get('trust proxy fn') as TrustProxyFn,
    lifecycle: parts.lifecycle,
    slots: parts.slotsPayload,
    nameTracedRoute: settings.nameTracedRoute,
  });
  return {
    express: app,
    listener: (req, res) => {
      if (!fastPath(req, res)) app(req, res);
    },
  };
}

/** The app's request listener, and the Express application behind it. */
export interface AppRoutes {
  /** What the HTTP server calls: the public fast path (when on), then Express for everything it did not answer. */
  listener: RequestListener;
  express: Express;
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
