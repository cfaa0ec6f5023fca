import type { Store } from 'express-session';

/** Where sessions live. The one place that chooses between the SQLite file and Redis. */
export interface SessionStorage {
  readonly kind: 'sqlite' | 'redis';
  readonly store: Store;
  /** The connected redis client when sessions live in Redis (other shared counters, e.g. rate limits, may use it). */
  readonly redisClient?: object;
  /** Resolves when the store can serve requests (Redis connected). */
  ready(): Promise<void>;
  /** The readiness checks of this storage, by name, for GET /readyz. */
  check(): Promise<Record<string, 'ok' | 'failing'>>;
  /** Stops timers and closes connections the storage opened. */
  close(): Promise<void>;
}
