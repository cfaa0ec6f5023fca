import type { Logger } from 'pino';
import type { PostgresEngine } from './postgres-engine';
import { sessionStorageInDatabase, type SessionStorage } from './session-storage';
import { SqliteSessionStore } from './sqlite-session-store';
import { SqliteEngine } from './sqlite-engine';
import type { StorageEngine } from './storage-engine';

export interface SessionStorageOptions {
  /** Sessions live in its database unless `redisUrl` is set. */
  engine: StorageEngine;
  /** Sessions go to Redis when set. */
  redisUrl?: string | undefined;
  /** Lifetime of a stored session without a cookie expiry. */
  fallbackTtlMs: number;
  cleanupIntervalMs: number;
  logger: Logger;
  now?: () => number;
}

/** The one place that chooses where sessions live: Redis when configured, otherwise the storage engine's database. */
export function createSessionStorage(options: SessionStorageOptions): SessionStorage {
  const { engine } = options;
  // The Redis and PostgreSQL stores (and their clients) load only when chosen: a server on SQLite alone starts
  // without paying for them.
  if (options.redisUrl) {
    const { createRedisSessionStorage } =
      require('./redis-session-storage') as typeof import('./redis-session-storage');
    return createRedisSessionStorage({ url: options.redisUrl, logger: options.logger });
  }
  if (engine.kind === 'postgres') {
    const { createPostgresSessionStorage } =
      require('./postgres-session-storage') as typeof import('./postgres-session-storage');
    return createPostgresSessionStorage({
      engine: engine as PostgresEngine,
      fallbackTtlMs: options.fallbackTtlMs,
      cleanupIntervalMs: options.cleanupIntervalMs,
      logger: options.logger,
    });
  }
  if (!(engine instanceof SqliteEngine)) throw new Error(`No session store for the ${engine.kind} engine.`);
  const store = new SqliteSessionStore(engine.file.db, {
    fallbackTtlMs: options.fallbackTtlMs,
    cleanupIntervalMs: options.cleanupIntervalMs,
    ...(options.now ? { now: options.now } : {}),
  });
  store.on('error', (error: unknown) => options.logger.error({ err: error }, 'session cleanup failed'));
  return sessionStorageInDatabase('sqlite', store);
}
