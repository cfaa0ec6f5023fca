import type { Store } from 'express-session';
import type { ServerReadiness } from '../readiness-checks';

/** Where sessions live: the SQLite file, PostgreSQL or Redis (createSessionStorage chooses). */
export interface SessionStorage {
  readonly kind: 'sqlite' | 'postgres' | 'redis';
  readonly store: Store;
  /** The connected redis client when sessions live in Redis (other shared counters, e.g. rate limits, may use it). */
  readonly redisClient?: object;
  /** Resolves when the store can serve requests (Redis connected). */
  ready(): Promise<void>;
  /** The readiness checks of this storage, by name (READINESS_CHECKS: `redis`), for GET /readyz. */
  check(): Promise<ServerReadiness>;
  /** Stops timers and closes connections the storage opened. */
  close(): Promise<void>;
  /** Whether close() has finished (a shutdown that stops waiting names the stores still closing). */
  readonly closed: boolean;
  /** The store as log lines name it when it is one of its own (Redis, with its address), not the app's database. */
  readonly displayName?: string;
}

/**
 * Sessions kept in the app's own database (SQLite or PostgreSQL): ready at once, nothing of their own to check
 * (the app checks the database), and closing stops the store's cleanup timer.
 */
export function sessionStorageInDatabase(
  kind: 'sqlite' | 'postgres',
  store: Store & { close(): unknown },
): SessionStorage {
  let closed = false;
  return {
    kind,
    store,
    ready: () => Promise.resolve(),
    check: () => Promise.resolve({}),
    close: () => {
      store.close();
      closed = true;
      return Promise.resolve();
    },
    get closed() {
      return closed;
    },
  };
}
