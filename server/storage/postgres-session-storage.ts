import connectPgSimple from 'connect-pg-simple';
import session from 'express-session';
import type { Logger } from 'pino';
import type { PostgresEngine } from './postgres-engine';
import { sessionStorageInDatabase, type SessionStorage } from './session-storage';

const PostgresSessionStore = connectPgSimple(session);

export interface PostgresSessionStorageOptions {
  engine: PostgresEngine;
  /** Lifetime of a stored session without a cookie expiry. */
  fallbackTtlMs: number;
  /** How often expired sessions are deleted (0: never). */
  cleanupIntervalMs: number;
  logger: Logger;
}

/**
 * Sessions in PostgreSQL's `sessions` table (created by the migrations, in connect-pg-simple's layout), on the
 * engine's pool: every host sharing the database shares the sessions.
 */
export function createPostgresSessionStorage(options: PostgresSessionStorageOptions): SessionStorage {
  const store = new PostgresSessionStore({
    pool: options.engine.pool,
    tableName: 'sessions',
    createTableIfMissing: false,
    ttl: Math.ceil(options.fallbackTtlMs / 1000),
    pruneSessionInterval: options.cleanupIntervalMs > 0 ? Math.ceil(options.cleanupIntervalMs / 1000) : false,
    errorLog: (...args: unknown[]) => options.logger.error({ details: args.map(String) }, 'session cleanup failed'),
  });
  // The pool is the engine's and closes with it; closing the store stops its cleanup timer.
  return sessionStorageInDatabase('postgres', store);
}
