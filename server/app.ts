import path from 'node:path';
import express, { type Express, type Request, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { createAuthRouter } from './auth/auth-router';
import { CredentialChecker } from './auth/credential-checker';
import { createPassport } from './auth/create-passport';
import { DEFAULT_SCRYPT_PARAMS, type ScryptParams } from './auth/password-hash';
import { createSessionChain } from './auth/session-chain';
import { mePayload } from './auth/me-payload';
import { UserStore } from './auth/user-store';
import './auth/session-data';
import './auth/staff-user';
import { CLIENT_ROUTES, createHostPageRouter, type SignedInPage } from './host-page/host-page-router';
import { createApiSecurityHeaders } from './security/api-security-headers';
import { createCrossSiteGuard } from './security/cross-site-guard';
import { LoginRateLimiter, rateLimitStoreIn } from './auth/login-rate-limit/login-rate-limiter';
import {
  DEFAULT_LOGIN_RATE_LIMIT_SETTINGS,
  type LoginRateLimitSettings,
} from './auth/login-rate-limit/login-rate-limit-settings';
import { createLoginThrottle } from './auth/login-rate-limit/login-throttle';
import { createSecurityHeadersFollowing } from './security/security-headers';
import { ServerLifecycle } from './process/server-lifecycle';
import { createHealthRouter, type ReadinessCheck } from './health/health-router';
import { TRUST_EVERY_HOP_REFUSED } from './config/trust-proxy';
import { createErrorHandler } from './http/error-handler';
import { notFoundHandler } from './http/not-found-handler';
import { inSeries } from './http/in-series';
import { requestLogging } from './http/request-logging';
import { JSON_BODY_LIMIT_BYTES } from './http/require-json-body';
import { createLogger } from './logger';
import { DashboardRegistry, type DashboardDefinition } from './meta/dashboard-registry';
import { MetaBodyCache } from './meta/meta-body-cache';
import { addMetaRoute } from './meta/meta-router';
import { ModuleRegistry, type ModuleDefinition } from './meta/module-registry';
import { createRemotesRouter, loadRemotesConfig, RemoteCatalogue, RemotesConfigError } from './remotes';
import type { Resource } from './resources/resource';
import { ResourceRegistry } from './resources/resource-registry';
import { createResourcesRouter } from './resources/resources-router';
import { StoredRecordSource } from './resources/stored-record-source';
import { SlotRegistry, type SlotRegistrationMap } from './slots/slot-registry';
import { SlotsPayloadCache } from './slots/slots-payload';
import { addSlotsRoute } from './slots/slots-router';
import { addSlotInspectionRoute } from './slots/slot-inspection';
import { addSlotSchemasRoute } from './slots/slot-schemas-router';
import { codeSlots } from './slots/code-slots';
import { formatSlotProblem, SlotContractError, type SlotProblem } from './slots/slot-contract';
import type { RemotesConfig } from './remotes/remotes-config';
import type { AppDatabase } from './storage/app-database';
import { openStorage, type StorageSettings } from './storage/open-storage';
import { SqliteEngine } from './storage/sqlite-engine';
import type { StorageEngine } from './storage/storage-engine';
import { createSessionStorage } from './storage/create-session-storage';
import type { SessionStorage } from './storage/session-storage';
import { currentTenant } from './tenants/current-tenant';
import { TenantStore } from './tenants/tenant-store';

export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;
export const DEFAULT_SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
const DEFAULT_SESSION_CLEANUP_INTERVAL_MS = 10 * 60 * 1000;
/** `<repo>/dist`: this file sits in `<repo>/server/`. */
export const DEFAULT_DIST_DIR = path.resolve(__dirname, '..', 'dist');

/**
 * Paths whose requests load the session; the rest (health, /slots, static files) never touch the store. The busiest
 * come first: a router layer tries its paths in order.
 */
const SESSION_PATHS = ['/meta', '/api/resources', '/me', '/tenant', '/login', '/logout', '/api/slots'];

export interface AppOptions {
  /** The SQLite file; created and migrated when missing. Ignored when `storage` is given. */
  databasePath?: string;
  /** Where the data lives (the SQLite file, or PostgreSQL: DATABASE_URL); default the SQLite file `databasePath`. */
  storage?: StorageSettings;
  /** Secret(s) that sign the session cookie: the first signs, every one verifies (for rotation). */
  sessionSecret: string | readonly string[];
  /** `production`, `development` or `test`; default `development`. */
  nodeEnv?: string;
  /** Sessions live in Redis when set, in the database (SQLite or PostgreSQL) otherwise. */
  redisUrl?: string | undefined;
  /**
   * Express `trust proxy`: the proxy's address(es) or hop count when a TLS-terminating proxy is in front. Default
   * false. `true` is refused: any client could then forge its address for the sign-in limits.
   */
  trustProxy?: false | number | string | readonly string[];
  /** A session unused this long ends (default 30 min). */
  sessionIdleMs?: number;
  /** A session this old ends, however busy (default 12 h). */
  sessionAbsoluteMs?: number;
  /** How often the SQLite store deletes expired sessions (default 10 min; 0: never). */
  sessionCleanupIntervalMs?: number;
  /** Clock of the session timeouts (tests). */
  now?: () => number;
  logger?: Logger;
  /**
   * Serve the build's source maps (`*.map`). Default: outside production only, since a map hands out the source of
   * the host and the remotes.
   */
  serveSourceMaps?: boolean;
  /** One log line per request (default false: errors, start and stop are logged anyway). */
  logRequests?: boolean;
  /** Root of the build output (host shell and remotes); default `<repo>/dist`. */
  distDir?: string;
  /** Environment handed to the remotes router (its configuration); the app factory never reads process.env. */
  env?: NodeJS.ProcessEnv;
  /** scrypt parameters for new password hashes (default: OWASP's minimum). */
  passwordHashParams?: ScryptParams;
  /** Largest JSON body (default 16 KiB). */
  jsonBodyLimitBytes?: number;
  /** More readiness checks for GET /readyz. */
  readinessChecks?: readonly ReadinessCheck[];
  /**
   * Origins besides the server's own whose pages may send state-changing requests (CSRF check); every other site
   * is refused with 403. Default none.
   */
  allowedOrigins?: readonly string[];
  /**
   * What `ready()` does with slots that break the props contract (unknown component, disabled remote, props failing
   * the schema): `fail` (default) rejects with one error listing them; `log` logs that list and starts anyway, for
   * test and benchmark entries that place components no remote provides on purpose.
   */
  slotProblems?: 'fail' | 'log';
  /** How long reading a remote's descriptor from its origin may take at start-up (default 3 s). */
  remoteDescriptorTimeoutMs?: number;
  /** Sign-in attempts allowed per account+IP and per IP (counted in Redis when configured, else in the database). */
  loginRateLimit?: LoginRateLimitSettings;
  /** Extra middleware of an embedding application (security headers, CSRF check and sign-in limits are built in). */
  middleware?: {
    /** Before every route. */
    beforeRoutes?: readonly RequestHandler[];
    /** On `POST /login`, after the body is parsed and before the password is checked. */
    beforeLogin?: readonly RequestHandler[];
  };
}

/**
 * The server application: an Express handler plus the registries a host application fills in.
 *
 * ```ts
 * const app = createApp({ databasePath, sessionSecret });
 * app.registerSlots({ 'login-before-form': Slot.make('LoginNotice', { title: 'Welcome' }) });
 * await app.ready();
 * http.createServer(app.handler).listen(3000);
 * ```
 *
 * It never listens itself (server/main.ts does), so tests drive `app.handler` with supertest.
 */
export class App {
  /** The Express application; give it to `http.createServer` or supertest. */
  readonly handler: Express;
  readonly logger: Logger;
  /** The database of users, tenants, records (and sessions and sign-in counters, without Redis). */
  readonly storage: StorageEngine;
  readonly users: UserStore;
  readonly tenants: TenantStore;
  readonly records: StoredRecordSource;
  readonly slots: SlotRegistry;
  /** The cached JSON of the registered slots (rebuilt once per registration). */
  readonly slotsPayload: SlotsPayloadCache;
  readonly resources: ResourceRegistry;
  readonly modules: ModuleRegistry;
  readonly dashboards: DashboardRegistry;
  /** The encoded `/meta` bodies per tenant (rebuilt when dashboards, modules or slots change). */
  readonly metaBody: MetaBodyCache;
  /** Where sessions live (SQLite, PostgreSQL or Redis). */
  readonly sessions: SessionStorage;
  /** Counts sign-in attempts (in Redis with the sessions, else in the database). */
  readonly loginRateLimiter: LoginRateLimiter;
  /** Whether the app takes new work; a shutdown turns readiness off through it. */
  readonly lifecycle = new ServerLifecycle();
  /** The remotes served now and the slots REMOTES_CONFIG places for them. */
  readonly remoteCatalogue: RemoteCatalogue;
  private readonly distDir: string;
  private readonly env: NodeJS.ProcessEnv;
  readonly passwordHashParams: ScryptParams;
  private readonly extraReadinessChecks: readonly ReadinessCheck[];
  private readying: Promise<void> | null = null;
  /** Contract problems already logged, so a remote answering again does not repeat them. */
  private readonly reportedProblems = new Set<string>();
  /** Set once `ready()` has checked the slots: later problems (a remote answering late) are logged, not fatal. */
  private slotsChecked = false;
  private readonly failOnSlotProblems: boolean;
  private closing: Promise<void> | null = null;

  constructor(options: AppOptions) {
    const nodeEnv = options.nodeEnv ?? 'development';
    this.logger = options.logger ?? createLogger(nodeEnv);
    this.passwordHashParams = options.passwordHashParams ?? DEFAULT_SCRYPT_PARAMS;
    this.extraReadinessChecks = options.readinessChecks ?? [];
    this.failOnSlotProblems = (options.slotProblems ?? 'fail') === 'fail';
    const now = options.now ?? Date.now;
    const idleMs = positive(options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS, 'sessionIdleMs');
    const absoluteMs = positive(options.sessionAbsoluteMs ?? DEFAULT_SESSION_ABSOLUTE_MS, 'sessionAbsoluteMs');
    const bodyLimitBytes = options.jsonBodyLimitBytes ?? JSON_BODY_LIMIT_BYTES;
    const secrets = typeof options.sessionSecret === 'string' ? [options.sessionSecret] : [...options.sessionSecret];
    if (secrets.length === 0 || secrets.some((secret) => typeof secret !== 'string' || secret.length < 16)) {
      throw new Error('sessionSecret must be one or more strings of at least 16 characters.');
    }

    const distDir = options.distDir ?? DEFAULT_DIST_DIR;
    this.distDir = distDir;
    this.env = options.env ?? { NODE_ENV: nodeEnv };
    // Read before anything is opened: a bad configuration fails the start with nothing to clean up.
    const remotesConfig = loadRemotesConfig({ env: this.env, distDir });
    this.remoteCatalogue = new RemoteCatalogue(remotesConfig, {
      logger: this.logger,
      passDevEvents: nodeEnv !== 'production',
      ...(options.remoteDescriptorTimeoutMs === undefined
        ? {}
        : { descriptorTimeoutMs: options.remoteDescriptorTimeoutMs }),
    });

    const storage = options.storage ?? { kind: 'sqlite', path: requiredDatabasePath(options.databasePath) };
    this.storage = openStorage(storage, (error) =>
      this.logger.warn({ err: error }, 'database: an idle connection or a background index build failed'),
    );
    try {
      this.users = new UserStore(this.storage);
      this.tenants = new TenantStore(this.storage);
      this.records = new StoredRecordSource(this.storage);
      this.slots = new SlotRegistry();
      this.slots.replaceConfigured(this.remoteCatalogue.slots());
      this.remoteCatalogue.subscribe(() => {
        this.slots.replaceConfigured(this.remoteCatalogue.slots());
        // A remote that answered late: its code slots are checked now (after start-up they are logged, not fatal).
        if (this.slotsChecked) this.logSlotProblems(this.slotProblems());
      });
      this.slotsPayload = new SlotsPayloadCache(this.slots);
      this.resources = new ResourceRegistry();
      this.modules = new ModuleRegistry(this.resources);
      this.dashboards = new DashboardRegistry(this.records);
      this.metaBody = new MetaBodyCache({
        slots: this.slotsPayload,
        modules: this.modules,
        dashboards: this.dashboards,
      });
      this.sessions = createSessionStorage({
        engine: this.storage,
        redisUrl: options.redisUrl,
        fallbackTtlMs: idleMs,
        cleanupIntervalMs: options.sessionCleanupIntervalMs ?? DEFAULT_SESSION_CLEANUP_INTERVAL_MS,
        logger: this.logger,
      });
      this.loginRateLimiter = LoginRateLimiter.create(
        options.loginRateLimit ?? DEFAULT_LOGIN_RATE_LIMIT_SETTINGS,
        this.sessions.redisClient
          ? { kind: 'redis', client: this.sessions.redisClient }
          : rateLimitStoreIn(this.storage),
      );
    } catch (error) {
      void this.storage.close();
      throw error;
    }

    const authenticator = createPassport(this.users, new CredentialChecker(this.users, this.passwordHashParams));
    const app = express();
    app.disable('x-powered-by');
    // ETags are computed where they pay off (/slots), not over every JSON body.
    app.set('etag', false);
    app.set('env', nodeEnv);
    if ((options.trustProxy as unknown) === true) {
      throw new Error(`trustProxy must be ${TRUST_EVERY_HOP_REFUSED}.`);
    }
    app.set('trust proxy', options.trustProxy ?? false);

    // Once draining, every answer asks the client to reconnect elsewhere (checked when its headers are written).
    this.lifecycle.closeConnectionsOf(app.response);
    // What every request runs, as one router layer (each layer costs every request a few allocations).
    app.use(
      inSeries([
        ...requestStartNotice(this.storage),
        requestLogging(app, this.logger, options.logRequests ?? false),
        // The API answers JSON: a small header set. Documents and files get helmet's full set, below.
        createApiSecurityHeaders(),
        createCrossSiteGuard({ allowedOrigins: options.allowedOrigins ?? [] }),
        ...(options.middleware?.beforeRoutes ?? []),
      ]),
    );
    // Busiest routes first (/slots, then /meta): every router a request passes on its way costs it time.
    addSlotsRoute(app, this.slotsPayload);
    const sessionOptions = { store: this.sessions.store, secrets, authenticator, idleMs, absoluteMs, now };
    app.use(SESSION_PATHS, createSessionChain(sessionOptions));
    // Before the auth routes: /meta is what every signed-in page asks for.
    addMetaRoute(app, { body: this.metaBody, tenants: this.tenants });
    app.use(
      createAuthRouter({
        authenticator,
        tenants: this.tenants,
        now,
        bodyLimitBytes,
        beforeLogin: [createLoginThrottle(this.loginRateLimiter), ...(options.middleware?.beforeLogin ?? [])],
      }),
    );
    app.use(
      createResourcesRouter({
        resources: this.resources,
        records: this.records,
        tenants: this.tenants,
        bodyLimitBytes,
      }),
    );
    addSlotInspectionRoute(app, this.slots, this.resources, this.remoteCatalogue);
    // Development servers only: the schemas the host checks props against before rendering a slot.
    if (nodeEnv !== 'production') addSlotSchemasRoute(app, this.remoteCatalogue);
    app.use(createHealthRouter(() => this.readinessChecks()));
    // Documents and files (host shell, assets, remote bundles) and whatever no route answered: helmet's full set,
    // with the CSP that lets the host page load the remotes.
    app.use(createSecurityHeadersFollowing(this.remoteCatalogue));
    const sourceMaps = options.serveSourceMaps ?? nodeEnv !== 'production';
    // Placeholders naming components, remotes and errors follow the server's mode, never the host's build mode.
    const showSlotDetails = nodeEnv !== 'production';
    app.use(createRemotesRouter({ distDir, catalogue: this.remoteCatalogue, sourceMaps, showSlotDetails }));
    // The host's pages know their visitor: a signed-in one's page carries their session and slot data (exact
    // routes only, so the host's files never load a session).
    app.get(CLIENT_ROUTES, createSessionChain(sessionOptions, { for: 'page' }));
    app.use(
      createHostPageRouter({
        distDir,
        sourceMaps,
        remotes: () => this.remoteCatalogue.remotes(),
        showSlotDetails,
        // Public slots only: the boot data inlined into index.html is served to anonymous visitors.
        publicSlots: () => this.slotsPayload.current().publicSlots,
        signedIn: (req) => this.signedInPage(req),
      }),
    );
    app.use(notFoundHandler);
    app.use(createErrorHandler(this.logger));
    this.handler = app;
  }

  /** What a signed-in page request's page carries for its user (what GET /me and GET /meta answer), else null. */
  private async signedInPage(req: Request): Promise<SignedInPage | null> {
    const user = req.user;
    if (!user) return null;
    try {
      const context = await currentTenant(req, this.tenants);
      return {
        me: mePayload(user, context),
        meta: await this.metaBody.body(context.current),
        slots: this.slotsPayload.current().allSlotMap,
      };
    } catch {
      // A member of no tenant, or the database not answering: the page asks GET /me, whose answer says why.
      return null;
    }
  }

  /**
   * Registers slots: location value -> one Slot or a list of Slots. Calls append, in order. An unknown location or
   * a value that is not a Slot throws at once (naming it), and nothing of that call is registered.
   */
  registerSlots(map: SlotRegistrationMap): this {
    this.slots.register(map);
    return this;
  }

  /** Adds a resource (its API under /api/resources/<name>); its definition is checked now. */
  registerResource(resource: Resource): this {
    this.resources.register(resource);
    return this;
  }

  /** Adds a navigation module listing registered resources. */
  registerModule(definition: ModuleDefinition): this {
    this.modules.register(definition);
    return this;
  }

  /** Adds a dashboard; its cards are computed per tenant and cached until records change. */
  registerDashboard(definition: DashboardDefinition): this {
    this.dashboards.register(definition);
    return this;
  }

  /**
   * Finishes the start: waits for the session store (Redis), checks that every relation points at a registered
   * resource, reads the descriptors of the remotes declared by entry, and checks every slot (code and configuration)
   * against the remotes' descriptors. Rejects with one {@link SlotContractError} listing every slot that cannot
   * render (unknown component, disabled remote, props failing the schema); a slot waiting for a remote that has not
   * answered is logged and checked when it answers. Call once registrations are done, before listening.
   */
  ready(): Promise<void> {
    this.readying ??= (async () => {
      // PostgreSQL: the migrations, under the advisory lock (SQLite migrated when the file was opened).
      await this.storage.migrate();
      await this.sessions.ready();
      this.resources.assertRelationsResolve();
      // Bounded by the descriptor timeout: a remote that is down is logged and retried, never awaited further.
      await this.remoteCatalogue.refresh();
      const problems = this.slotProblems();
      const blocking = problems.filter((problem) => problem.blocking);
      if (blocking.length > 0 && this.failOnSlotProblems) throw new SlotContractError(blocking);
      this.logSlotProblems(problems);
      this.slotsChecked = true;
    })();
    return this.readying;
  }

  /**
   * Every slot checked against the remotes' descriptors (of `config`, a reload being considered, or the one in use).
   * With no remote at all (nothing built, no REMOTES_CONFIG) there is nothing to check against: none is reported.
   */
  slotProblems(config?: RemotesConfig): SlotProblem[] {
    const remotes = this.remoteCatalogue.contractRemotes(config);
    if (remotes.known.length === 0 && remotes.waiting.length === 0 && remotes.disabled.length === 0) return [];
    return [
      ...this.remoteCatalogue.contract.check(codeSlots(this.slots, this.resources), remotes),
      ...this.remoteCatalogue.configuredSlotProblems(config),
    ];
  }

  /** Logs the problems not logged yet: those that stop a slot as one error, those that may resolve as a warning. */
  private logSlotProblems(problems: readonly SlotProblem[]): void {
    const fresh = problems.filter((problem) => {
      const message = formatSlotProblem(problem);
      if (this.reportedProblems.has(message)) return false;
      this.reportedProblems.add(message);
      return true;
    });
    const blocking = fresh.filter((problem) => problem.blocking);
    const waiting = fresh.filter((problem) => !problem.blocking);
    if (blocking.length > 0) this.logger.error({ slots: blocking.length }, new SlotContractError(blocking).message);
    if (waiting.length > 0) {
      this.logger.warn(
        { slots: waiting.length },
        `Slots checked again when their remote answers:\n${waiting.map((p) => `  - ${formatSlotProblem(p)}`).join('\n')}`,
      );
    }
  }

  /**
   * Re-reads REMOTES_CONFIG (on SIGHUP): remotes, their slots and the allowed origins change for the next request,
   * sessions and requests in flight are untouched. An invalid file keeps the configuration in use and logs why.
   * @returns whether the new configuration was taken
   */
  async reloadRemotesConfig(): Promise<boolean> {
    let config;
    try {
      config = loadRemotesConfig({ env: this.env, distDir: this.distDir });
    } catch (error) {
      if (!(error instanceof RemotesConfigError)) throw error;
      this.logger.error(`Remotes configuration not reloaded, the previous one stays in use: ${error.message}`);
      return false;
    }
    const blocking = this.slotProblems(config).filter((problem) => problem.blocking);
    if (blocking.length > 0) {
      this.logger.error(
        `Remotes configuration not reloaded, the previous one stays in use: ${new SlotContractError(blocking).message}`,
      );
      return false;
    }
    await this.remoteCatalogue.replace(config);
    this.logger.info(
      { remotes: this.remoteCatalogue.remotes().map((remote) => remote.name), slots: config.slots.length },
      'Remotes configuration reloaded.',
    );
    return true;
  }

  /** The SQLite file, when the data lives in one (not with DATABASE_URL). */
  get database(): AppDatabase {
    if (!(this.storage instanceof SqliteEngine)) {
      throw new Error('The data lives in PostgreSQL (DATABASE_URL): there is no SQLite file.');
    }
    return this.storage.file;
  }

  /** Readiness checks by name (database; Redis when configured; `draining` once a shutdown began). */
  async readinessChecks(): Promise<Record<string, 'ok' | 'failing'>> {
    let database: 'ok' | 'failing' = 'ok';
    try {
      await this.storage.check();
    } catch {
      database = 'failing';
    }
    const extra = await Promise.all(this.extraReadinessChecks.map((check) => check()));
    const draining = this.lifecycle.draining ? { draining: 'failing' as const } : {};
    return Object.assign({ database }, await this.sessions.check(), ...extra, draining);
  }

  /** Closes the session storage (Redis client, cleanup timer) and the database (file or pool). Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.remoteCatalogue.close();
      this.loginRateLimiter.close();
      try {
        await this.sessions.close();
      } finally {
        await this.storage.close();
      }
    })();
    return this.closing;
  }
}

/**
 * Tells the engine that a request started, so change-stamp reads sent before it do not serve it
 * (PostgresEngine.changeStamp). SQLite needs nothing: no middleware for it.
 */
function requestStartNotice(storage: StorageEngine): RequestHandler[] {
  if (storage.kind === 'sqlite') return [];
  return [
    (_req, _res, next) => {
      storage.noteRequestStart();
      next();
    },
  ];
}

function requiredDatabasePath(databasePath: string | undefined): string {
  if (!databasePath) throw new Error('Give databasePath (the SQLite file) or storage.');
  return databasePath;
}

export function createApp(options: AppOptions): App {
  return new App(options);
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of milliseconds.`);
  return value;
}
