import type { Logger } from 'pino';
import type { AppDatabase } from './app-database';
import { createRedisSessionStorage } from './redis-session-storage';
import type { SessionStorage } from './session-storage';
import { SqliteSessionStore } from './sqlite-session-store';

export interface SessionStorageOptions {
  database: AppDatabase;
  /** Sessions go to Redis when set. */
  redisUrl?: string | undefined;
  /** Lifetime of a stored session without a cookie expiry. */
  fallbackTtlMs: number;
  cleanupIntervalMs: number;
  logger: Logger;
  now?: () => number;
}

export function createSessionStorage(options: SessionStorageOptions): SessionStorage {
  if (options.redisUrl) {
    return createRedisSessionStorage({ url: options.redisUrl, logger: options.logger });
  }
  const store = new SqliteSessionStore(options.database.db, {
    fallbackTtlMs: options.fallbackTtlMs,
    cleanupIntervalMs: options.cleanupIntervalMs,
    ...(options.now ? { now: options.now } : {}),
  });
  store.on('error', (error: unknown) => options.logger.error({ err: error }, 'session cleanup failed'));
  return {
    kind: 'sqlite',
    store,
    ready: () => Promise.resolve(),
    // The database itself is checked by the app; sessions add nothing to check.
    check: () => Promise.resolve({}),
    close: () => {
      store.close();
      return Promise.resolve();
    },
  };
}
