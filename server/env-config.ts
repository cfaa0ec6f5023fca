import fs from 'node:fs';
import path from 'node:path';
import { readBoolean, readList, refuseExamplePlaceholder } from './config/env-values';
import { shutdownSettingsFromEnv, type ShutdownSettings } from './process/graceful-shutdown';
import { serverTimeoutSettingsFromEnv, type ServerTimeoutSettings } from './process/http-server';
import {
  loginRateLimitSettingsFromEnv,
  type LoginRateLimitSettings,
} from './auth/login-rate-limit/login-rate-limit-settings';
import { trustProxyFromEnv, type TrustProxySetting } from './config/trust-proxy';
import type { PostgresSettings } from './storage/postgres-engine';
import type { StorageSettings } from './storage/open-storage';
import { postgresSettingsFromEnv } from './config/postgres-settings';
import { ConfigError } from './config/config-error';
import { parseOrigin } from './security/parse-origin';
import { slotEventSettingsFromEnv, type SlotEventSettings } from './slot-events/slot-event-settings';
import { teamTokenLimitSettingsFromEnv, type TeamTokenLimitSettings } from './releases/team-token-limit-settings';
import { metricsSettingsFromEnv, type MetricsSettings } from './observability/metrics-settings';
import { tlsSettingsFromEnv, type TlsSettings } from './config/tls-settings';
import { publicOriginFromEnv } from './security/public-url';
import { remoteDescriptorTimeoutFromEnv } from './remotes/remote-descriptor-timeout';

/** Where the database lives when DATABASE_PATH is not set (relative to the working directory). */
export const DEFAULT_DATABASE_PATH = './data/app.db';

/** The server's settings, read from the environment in one place (the app factory never reads process.env). */
export interface ServerConfig {
  port: number;
  host: string;
  /** Absolute path of the SQLite file (unused when `postgres` is set). */
  databasePath: string;
  /** DATABASE_URL, DATABASE_POOL_SIZE, DATABASE_STATEMENT_TIMEOUT_MS: everything lives in PostgreSQL when set. */
  postgres: PostgresSettings | undefined;
  redisUrl: string | undefined;
  /** FRONTEND_DIR: the build output served (host shell, remotes), absolute; undefined: `<repo>/dist`. */
  frontendDir: string | undefined;
  nodeEnv: string;
  /** SESSION_SECRET split on commas (first signs, all verify); undefined: use the file beside the database. */
  sessionSecret: string[] | undefined;
  demoPassword: string | undefined;
  trustProxy: TrustProxySetting;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  logRequests: boolean;
  logLevel: string | undefined;
  /** SERVE_SOURCE_MAPS: whether the build's `.map` files are served; undefined: only outside production. */
  serveSourceMaps: boolean | undefined;
  /** ALLOWED_ORIGINS: other origins whose pages may send state-changing requests (CSRF check). */
  allowedOrigins: string[];
  /**
   * PUBLIC_URL, as its origin: where staff open the product (behind a proxy, not where the server listens), printed
   * at the start, and the origin a release's manifest must answer with CORS. Undefined: not said.
   */
  publicOrigin: string | undefined;
  /** LOGIN_RATE_LIMIT, LOGIN_IP_RATE_LIMIT, LOGIN_RATE_LIMIT_WINDOW_SECONDS. */
  loginRateLimit: LoginRateLimitSettings;
  /** TEAM_TOKEN_RATE_LIMIT: requests with an unknown team token per client per window. */
  teamTokenLimit: TeamTokenLimitSettings;
  /** SLOT_EVENTS_PER_*_PER_MINUTE and the canary's automatic rollback (CANARY_AUTO_ROLLBACK, CANARY_ROLLBACK_*). */
  slotEvents: SlotEventSettings;
  /** HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS. */
  serverTimeouts: ServerTimeoutSettings;
  /** SHUTDOWN_DELAY_MS, SHUTDOWN_TIMEOUT_MS. */
  shutdown: ShutdownSettings;
  /** METRICS_TOKEN, METRICS_PORT, METRICS_HOST: where `GET /metrics` is served, if anywhere. */
  metrics: MetricsSettings;
  /** TLS_CERT_FILE and TLS_KEY_FILE, read: the server speaks HTTPS (HTTP/2 and HTTP/1.1) itself; undefined: HTTP. */
  tls: TlsSettings | undefined;
  /** REMOTE_DESCRIPTOR_TIMEOUT_MS: how long one request to a remote's origin may take. */
  remoteDescriptorTimeoutMs: number;
}

export { ConfigError };

export function readConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const postgres = postgresSettingsFromEnv(env);
  const sessionSecret = readSecrets(env.SESSION_SECRET);
  if (postgres && !sessionSecret) {
    throw new ConfigError(
      'SESSION_SECRET must be set with DATABASE_URL: every host behind the same database must sign cookies with the ' +
        "same secret, and a generated one would live in one host's folder only.",
    );
  }
  const port = readPort(env.PORT);
  const metrics = metricsSettingsFromEnv(env);
  // Two listeners on one port: the second start would fail with a bare EADDRINUSE.
  if (metrics.port !== undefined && metrics.port !== 0 && metrics.port === port) {
    throw new ConfigError(
      `METRICS_PORT=${metrics.port} is the app's PORT too: give /metrics a port of its own, or unset METRICS_PORT ` +
        "to serve it on the app's port (with METRICS_TOKEN).",
    );
  }
  return {
    port,
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    databasePath: readDatabasePath(env, postgres !== undefined),
    postgres,
    redisUrl: readRedisUrl(env.REDIS_URL),
    frontendDir: nonEmpty(env.FRONTEND_DIR) === undefined ? undefined : path.resolve(env.FRONTEND_DIR as string),
    nodeEnv: nonEmpty(env.NODE_ENV) ?? 'development',
    sessionSecret,
    demoPassword: readDemoPassword(env.DEMO_PASSWORD),
    trustProxy: trustProxyFromEnv(env),
    sessionIdleMs: readPositive(env, 'SESSION_IDLE_MINUTES', 30, MAX_SESSION_IDLE_MINUTES) * 60 * 1000,
    sessionAbsoluteMs: readPositive(env, 'SESSION_ABSOLUTE_HOURS', 12, MAX_SESSION_ABSOLUTE_HOURS) * 60 * 60 * 1000,
    logRequests: readBoolean(env, 'LOG_REQUESTS', false),
    logLevel: readLogLevel(env.LOG_LEVEL),
    serveSourceMaps: env.SERVE_SOURCE_MAPS?.trim() ? readBoolean(env, 'SERVE_SOURCE_MAPS', false) : undefined,
    allowedOrigins: readAllowedOrigins(env),
    publicOrigin: publicOriginFromEnv(env),
    loginRateLimit: loginRateLimitSettingsFromEnv(env),
    teamTokenLimit: teamTokenLimitSettingsFromEnv(env),
    slotEvents: slotEventSettingsFromEnv(env),
    serverTimeouts: serverTimeoutSettingsFromEnv(env),
    shutdown: shutdownSettingsFromEnv(env),
    metrics,
    tls: tlsSettingsFromEnv(env),
    remoteDescriptorTimeoutMs: remoteDescriptorTimeoutFromEnv(env),
  };
}

/**
 * Where the data lives: PostgreSQL when DATABASE_URL is set, else the SQLite file at DATABASE_PATH (for commands,
 * which need nothing else of the configuration).
 */
export function storageSettingsFromEnv(env: NodeJS.ProcessEnv): StorageSettings {
  return storageSettingsOf({ postgres: postgresSettingsFromEnv(env), databasePath: databasePathFromEnv(env) });
}

/** The storage settings of a configuration. */
export function storageSettingsOf(config: Pick<ServerConfig, 'postgres' | 'databasePath'>): StorageSettings {
  return config.postgres ? { kind: 'postgres', ...config.postgres } : { kind: 'sqlite', path: config.databasePath };
}

/** DATABASE_PATH, made absolute against the working directory. */
/** Where sessions live when not in the database (REDIS_URL), as the server reads it: for the commands that end some. */
export function redisUrlFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return readRedisUrl(env.REDIS_URL);
}

export function databasePathFromEnv(env: NodeJS.ProcessEnv): string {
  return path.resolve(nonEmpty(env.DATABASE_PATH) ?? DEFAULT_DATABASE_PATH);
}

function readAllowedOrigins(env: NodeJS.ProcessEnv): string[] {
  return readList(env, 'ALLOWED_ORIGINS').map((value) => {
    const origin = parseOrigin(value);
    if (origin === null) {
      throw new ConfigError(
        `ALLOWED_ORIGINS holds ${JSON.stringify(value)}, which is not an origin (scheme://host[:port], no path).`,
      );
    }
    return origin;
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** pino's levels, from the most to the least said. */
const LOG_LEVELS: readonly string[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

function readLogLevel(raw: string | undefined): string | undefined {
  const value = nonEmpty(raw);
  if (value === undefined || LOG_LEVELS.includes(value)) return value;
  throw new ConfigError(`LOG_LEVEL=${JSON.stringify(raw)} is not a level: one of ${LOG_LEVELS.join(', ')}.`);
}

/** DATABASE_PATH; a folder there is refused with what to write instead (SQLite would say only EISDIR). */
function readDatabasePath(env: NodeJS.ProcessEnv, postgres: boolean): string {
  const file = databasePathFromEnv(env);
  if (!postgres && fs.existsSync(file) && fs.statSync(file).isDirectory()) {
    throw new ConfigError(
      `DATABASE_PATH=${JSON.stringify(env.DATABASE_PATH)} is a folder: name the database file, e.g. ` +
        `${path.join(file, 'app.db')}.`,
    );
  }
  return file;
}

function readPort(raw: string | undefined): number {
  const value = nonEmpty(raw);
  if (value === undefined) return 3000;
  const port = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT=${JSON.stringify(raw)} is not a port number (0-65535; 0 picks a free one).`);
  }
  return port;
}

function readRedisUrl(raw: string | undefined): string | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`REDIS_URL is not a URL; expected e.g. redis://127.0.0.1:6379.`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss://.`);
  }
  return value;
}

function readSecrets(raw: string | undefined): string[] | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  const secrets = value
    .split(',')
    .map((secret) => secret.trim())
    .filter((secret) => secret !== '');
  if (secrets.length === 0) throw new ConfigError('SESSION_SECRET holds no secret, only commas and spaces.');
  if (secrets.some((secret) => secret.length < 16)) {
    throw new ConfigError('SESSION_SECRET must be at least 16 characters (several secrets: separate with commas).');
  }
  for (const secret of secrets) refuseExamplePlaceholder('SESSION_SECRET', secret, 'openssl rand -hex 32');
  return secrets;
}

function readDemoPassword(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  // Read at every start, though only a first start (a new database) uses it: said, for whoever left it set.
  const use = " (the demo account's password, taken on the start that makes the database; unset it after)";
  if (raw.length < 12) throw new ConfigError(`DEMO_PASSWORD must be at least 12 characters long${use}.`);
  if (raw.length > 1024) throw new ConfigError(`DEMO_PASSWORD must be at most 1024 characters long${use}.`);
  return raw;
}

/**
 * The longest session lifetimes taken: a month unused, a year in all. Beyond some point a cookie's expiry is no date
 * at all (`SESSION_IDLE_MINUTES=1e12`: every sign-in answered 200 without a cookie), and no admin wants more.
 */
const MAX_SESSION_IDLE_MINUTES = 30 * 24 * 60;
const MAX_SESSION_ABSOLUTE_HOURS = 365 * 24;

function readPositive(env: NodeJS.ProcessEnv, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = nonEmpty(env[name]);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    throw new ConfigError(`${name}=${JSON.stringify(env[name])} must be a positive number.`);
  }
  if (number > max) throw new ConfigError(`${name}=${JSON.stringify(env[name])} must be at most ${max}.`);
  return number;
}
