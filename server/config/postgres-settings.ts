import type { PostgresSettings } from '../storage/postgres-engine';
import { ConfigError } from './config-error';
import { readInteger } from './env-values';

export const DEFAULT_DATABASE_POOL_SIZE = 10;
export const DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS = 5000;

/** The `sslmode` values the `pg` driver reads (its meaning: docs/operators/scaling.md, TLS). */
const SSL_MODES: readonly string[] = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];

/**
 * DATABASE_URL (postgres:// or postgresql://), DATABASE_POOL_SIZE and DATABASE_STATEMENT_TIMEOUT_MS; undefined when
 * DATABASE_URL is not set (the SQLite file at DATABASE_PATH then holds everything). TLS and the other connection
 * parameters travel in the URL (`?sslmode=verify-full`, `sslrootcert=...`), as the `pg` driver reads them: not libpq's
 * meaning (`prefer` and `require` verify the certificate and host name as `verify-full` does; README, Several hosts).
 */
export function postgresSettingsFromEnv(env: NodeJS.ProcessEnv): PostgresSettings | undefined {
  const url = env.DATABASE_URL?.trim();
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL is not a URL; expected e.g. postgres://user:password@db.internal:5432/slots.');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql:// (unset it to use DATABASE_PATH).');
  }
  // The driver takes any other value for TLS with verification: `disabled` failed as "the server does not support
  // SSL connections".
  const sslmode = parsed.searchParams.get('sslmode');
  if (sslmode !== null && !SSL_MODES.includes(sslmode)) {
    throw new ConfigError(
      `DATABASE_URL's sslmode ${JSON.stringify(sslmode)} is not one the driver knows: use ${SSL_MODES.join(', ')} ` +
        '(docs/operators/scaling.md, TLS).',
    );
  }
  return {
    url,
    poolSize: readInteger(env, 'DATABASE_POOL_SIZE', DEFAULT_DATABASE_POOL_SIZE, 1),
    statementTimeoutMs: readInteger(env, 'DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS, 1),
  };
}
