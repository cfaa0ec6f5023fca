import path from 'node:path';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import {
  DEFAULT_LOGIN_RATE_LIMIT_SETTINGS,
  type LoginRateLimitSettings,
} from './auth/login-rate-limit/login-rate-limit-settings';
import { DEFAULT_SCRYPT_PARAMS, scryptParamsProblem, type ScryptParams } from './auth/password-hash';
import { TRUST_EVERY_HOP_REFUSED } from './config/trust-proxy';
import type { ReadinessCheck } from './health/health-router';
import { JSON_BODY_LIMIT_BYTES } from './http/require-json-body';
import { createLogger } from './logger';
import { parseOrigin } from './security/parse-origin';
import { DEFAULT_DESCRIPTOR_TIMEOUT_MS } from './remotes/http-descriptor-source';
import { DEFAULT_DESCRIPTOR_RETRY_MS } from './remotes/descriptor-retry';
import { DEFAULT_TEAM_TOKEN_LIMIT_SETTINGS, type TeamTokenLimitSettings } from './releases/team-token-limit-settings';
import type { SlotProblemsMode } from './slots/slot-check-reporter';
import type { HostResolver } from './remotes/release-address-guard';
import type { StorageSettings } from './storage/open-storage';
import { slotEventSettingsOf, type SlotEventOptions, type SlotEventSettings } from './slot-events/slot-event-settings';

export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;
export const DEFAULT_SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
const DEFAULT_SESSION_CLEANUP_INTERVAL_MS = 10 * 60 * 1000;
/**
 * `<repo>/dist`: this file sits in `<repo>/server/`, or, compiled (`npm run build`, scripts/compile-server.ts), in
 * `<repo>/dist/server/`, whose parent is dist/ itself.
 */
export const DEFAULT_DIST_DIR = path.resolve(__dirname, __filename.endsWith('.js') ? '..' : path.join('..', 'dist'));

export interface AppOptions {
  /** The SQLite file; created and migrated when missing. Ignored when `storage` is given. */
  databasePath?: string;
  /** Where the data lives (the SQLite file, or PostgreSQL: DATABASE_URL); default the SQLite file `databasePath`. */
  storage?: StorageSettings;
  /** Secret(s) that sign the session cookie: the first signs, every one verifies (for rotation). */
  sessionSecret: string | readonly string[];
  /**
   * `production`, `development` or `test`; default NODE_ENV of `env`, else `development`. Production refuses plain-http
   * remote entries and serves no source maps, slot schemas or failure details.
   */
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
  /**
   * Environment handed to the remotes configuration (REMOTES_CONFIG), and NODE_ENV when `nodeEnv` is not given; the app
   * factory never reads process.env.
   */
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
   * The origin staff open the product's pages at (PUBLIC_URL's, `scheme://host[:port]`): a release's manifest on
   * another origin must answer it with CORS, or is refused (releases/manifest-cors.ts). Default unknown: not checked.
   */
  publicOrigin?: string;
  /**
   * What `ready()` does with slots that break the props contract (unknown component, disabled remote, props failing
   * the schema): `fail` (default) rejects with one error listing them; `log` logs that list and starts anyway, for
   * test and benchmark entries that place components no remote provides on purpose.
   */
  slotProblems?: SlotProblemsMode;
  /**
   * How long one request to a remote's origin may take: its descriptor at start, on each check and on reload, and a
   * release's files (REMOTE_DESCRIPTOR_TIMEOUT_MS; default 3 s).
   */
  remoteDescriptorTimeoutMs?: number;
  /** How the hosts of releases' entries are resolved (release-address-guard.ts): tests give theirs; default DNS. */
  resolveRemoteHost?: HostResolver;
  /**
   * How often a remote's origin is asked again: a descriptor not had yet, a REMOTES_CONFIG entry not made a release
   * yet, the origins of the remotes served (default 30 s).
   */
  remoteRetryIntervalMs?: number;
  /**
   * How often each host reads the releases' rollouts and the newest placements revision again, for changes made
   * elsewhere (default 1000 ms).
   */
  releasePollMs?: number;
  /** Sign-in attempts allowed per account+IP and per IP (counted in Redis when configured, else in the database). */
  loginRateLimit?: LoginRateLimitSettings;
  /** Requests with an unknown team token allowed per client, counted where the sign-in's are (default 20 per 15 min). */
  teamTokenLimit?: TeamTokenLimitSettings;
  /** Slot events: their limits, how they are written, and the automatic rollback of a failing canary. */
  slotEvents?: SlotEventOptions;
  /**
   * Measure for Prometheus (request durations, sign-ins, sessions, the database pool, the remotes; `app.metrics`),
   * and with `token` serve `GET /metrics` to `Authorization: Bearer <token>`. Without `token` the figures are only
   * read through `app.metrics` (a separate listener: start-server.ts). Default: nothing measured, no route.
   */
  metrics?: { token?: string };
  /**
   * Answer `GET /slots` before Express's router (http/public-fast-path.ts), with the same headers and bytes; default
   * true. Off to compare both ways (tests). Off as well whenever `middleware.beforeRoutes` is given.
   */
  publicFastPath?: boolean;
  /**
   * With traces sent (start-server.ts gives the SDK's): names the route of a request the fast path answers on its
   * HTTP span, which has no Express spans (Express does not run for it).
   */
  nameTracedRoute?: (route: string) => void;
  /** Extra middleware of an embedding application (security headers, CSRF check and sign-in limits are built in). */
  middleware?: {
    /** Before every route. */
    beforeRoutes?: readonly RequestHandler[];
    /** On `POST /login`, after the body is parsed and before the password is checked. */
    beforeLogin?: readonly RequestHandler[];
  };
}

/** The options with every default filled in and every value checked: what the app is built from. */
export interface AppSettings {
  nodeEnv: string;
  /** Not production: slot details in placeholders, the slot schemas route, kit dev servers' reload events. */
  development: boolean;
  logger: Logger;
  storage: StorageSettings;
  /** At least one, each of 16 characters or more; the first signs. */
  secrets: string[];
  redisUrl: string | undefined;
  trustProxy: false | number | string | readonly string[];
  idleMs: number;
  absoluteMs: number;
  sessionCleanupIntervalMs: number;
  now: () => number;
  sourceMaps: boolean;
  logRequests: boolean;
  distDir: string;
  env: NodeJS.ProcessEnv;
  passwordHashParams: ScryptParams;
  bodyLimitBytes: number;
  readinessChecks: readonly ReadinessCheck[];
  allowedOrigins: readonly string[];
  publicOrigin: string | undefined;
  slotProblems: SlotProblemsMode;
  remoteDescriptorTimeoutMs: number;
  resolveRemoteHost: HostResolver | undefined;
  remoteRetryIntervalMs: number;
  releasePollMs: number;
  loginRateLimit: LoginRateLimitSettings;
  teamTokenLimit: TeamTokenLimitSettings;
  slotEvents: SlotEventSettings;
  /** null: nothing measured per request, no `/metrics` route. */
  metrics: { token: string | undefined } | null;
  publicFastPath: boolean;
  nameTracedRoute: ((route: string) => void) | null;
  beforeRoutes: readonly RequestHandler[];
  beforeLogin: readonly RequestHandler[];
}

/** Fills in the defaults and checks the values; throws, naming the option, before anything is opened. */
export function appSettingsOf(options: AppOptions): AppSettings {
  // The guide's entry hands `env: process.env` and no nodeEnv: a NODE_ENV=production start must then be production.
  const nodeEnv = options.nodeEnv ?? (options.env?.NODE_ENV?.trim() || 'development');
  const development = nodeEnv !== 'production';
  const idleMs = positive(options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS, 'sessionIdleMs');
  const absoluteMs = positive(options.sessionAbsoluteMs ?? DEFAULT_SESSION_ABSOLUTE_MS, 'sessionAbsoluteMs');
  const given: unknown = options.sessionSecret;
  // Most often missing because an environment variable is not set (sessionSecret: process.env.SESSION_SECRET!).
  const secrets: unknown[] = typeof given === 'string' ? [given] : Array.isArray(given) ? [...given] : [];
  const isSecret = (secret: unknown): secret is string => typeof secret === 'string' && secret.length >= 16;
  if (secrets.length === 0 || !secrets.every(isSecret)) {
    throw new Error(
      `sessionSecret must be one or more strings of at least 16 characters${given === undefined ? ', and none was given (is SESSION_SECRET set?)' : ''}.`,
    );
  }
  if ((options.trustProxy as unknown) === true) throw new Error(`trustProxy must be ${TRUST_EVERY_HOP_REFUSED}.`);
  return {
    nodeEnv,
    development,
    logger: options.logger ?? createLogger(nodeEnv),
    storage: options.storage ?? { kind: 'sqlite', path: requiredDatabasePath(options.databasePath) },
    secrets: secrets.filter(isSecret),
    redisUrl: options.redisUrl,
    trustProxy: options.trustProxy ?? false,
    idleMs,
    absoluteMs,
    sessionCleanupIntervalMs: options.sessionCleanupIntervalMs ?? DEFAULT_SESSION_CLEANUP_INTERVAL_MS,
    now: options.now ?? Date.now,
    sourceMaps: options.serveSourceMaps ?? development,
    logRequests: options.logRequests ?? false,
    distDir: options.distDir ?? DEFAULT_DIST_DIR,
    env: options.env ?? { NODE_ENV: nodeEnv },
    passwordHashParams: passwordHashParamsOf(options.passwordHashParams),
    bodyLimitBytes: options.jsonBodyLimitBytes ?? JSON_BODY_LIMIT_BYTES,
    readinessChecks: options.readinessChecks ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
    publicOrigin: publicOriginOf(options.publicOrigin),
    slotProblems: options.slotProblems ?? 'fail',
    remoteDescriptorTimeoutMs: options.remoteDescriptorTimeoutMs ?? DEFAULT_DESCRIPTOR_TIMEOUT_MS,
    resolveRemoteHost: options.resolveRemoteHost,
    remoteRetryIntervalMs: options.remoteRetryIntervalMs ?? DEFAULT_DESCRIPTOR_RETRY_MS,
    releasePollMs: options.releasePollMs ?? 1000,
    loginRateLimit: options.loginRateLimit ?? DEFAULT_LOGIN_RATE_LIMIT_SETTINGS,
    teamTokenLimit: options.teamTokenLimit ?? DEFAULT_TEAM_TOKEN_LIMIT_SETTINGS,
    slotEvents: slotEventSettingsOf(options.slotEvents),
    metrics: options.metrics ? { token: options.metrics.token } : null,
    publicFastPath: options.publicFastPath ?? true,
    nameTracedRoute: options.nameTracedRoute ?? null,
    beforeRoutes: options.middleware?.beforeRoutes ?? [],
    beforeLogin: options.middleware?.beforeLogin ?? [],
  };
}

/**
 * The entry's scrypt parameters, checked now: ones the hash parser refuses, or scrypt does, would otherwise be found
 * at the first sign-in (a 500, or hashes no password matches).
 */
function passwordHashParamsOf(given: ScryptParams | undefined): ScryptParams {
  if (given === undefined) return DEFAULT_SCRYPT_PARAMS;
  const problem = scryptParamsProblem(given);
  if (problem !== undefined) throw new Error(`passwordHashParams.${problem}.`);
  return given;
}

function requiredDatabasePath(databasePath: string | undefined): string {
  if (!databasePath) throw new Error('Give databasePath (the SQLite file) or storage.');
  return databasePath;
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of milliseconds.`);
  return value;
}

/** The origin as a browser sends it (`https://Admin.example.com/` is `https://admin.example.com`), checked. */
function publicOriginOf(given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  const origin = parseOrigin(given);
  if (origin === null)
    throw new Error(`publicOrigin must be an origin (scheme://host[:port]), got ${JSON.stringify(given)}.`);
  return origin;
}
