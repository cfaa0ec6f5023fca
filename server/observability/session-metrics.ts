import type { Logger } from 'pino';
import { PostgresEngine } from '../storage/postgres-engine';
import type { SessionStorage } from '../storage/session-storage';
import type { StorageEngine } from '../storage/storage-engine';
import type { MetricsRegistry } from './metrics-registry';
import { withinScrapeDeadline } from './scrape-deadline';

/** A count slower than this is given up: a scrape must answer even when the pool is exhausted. */
export const SESSION_COUNT_TIMEOUT_MS = 1000;

/**
 * `slots_sessions_active{store}`: the sessions stored and not expired, counted when Prometheus scrapes (SQLite and Redis
 * through the session store, PostgreSQL by a count on the sessions table). A count that fails or takes longer than
 * SESSION_COUNT_TIMEOUT_MS leaves the gauge out of that scrape (logged), rather than failing or stalling `/metrics`:
 * the pool figures beside it are what tells why.
 */
export function addSessionMetrics(
  metrics: MetricsRegistry,
  sessions: SessionStorage,
  storage: StorageEngine,
  logger: Logger,
): void {
  const count = sessionCounter(sessions, storage);
  if (count === null) return;
  metrics.gauge({
    name: 'slots_sessions_active',
    help: 'Sessions stored and not expired, by store (every host sharing the store counts the same sessions).',
    // Labelled so that a count given up leaves no series at all, rather than an unlabelled 0 that would be a lie.
    labelNames: ['store'] as const,
    async collect() {
      try {
        this.set({ store: sessions.kind }, await withinScrapeDeadline(count(), SESSION_COUNT_TIMEOUT_MS));
      } catch (error) {
        this.reset();
        logger.warn({ err: error }, 'metrics: counting the sessions failed');
      }
    },
  });
}

function sessionCounter(sessions: SessionStorage, storage: StorageEngine): (() => Promise<number>) | null {
  if (sessions.kind === 'postgres' && storage instanceof PostgresEngine) {
    // connect-pg-simple has no length(); its table's `expire` column says which sessions are still alive.
    const { pool } = storage;
    return async () => {
      const result = await pool.query<{ count: string }>('SELECT count(*) AS count FROM sessions WHERE expire > now()');
      return Number(result.rows[0]?.count ?? 0);
    };
  }
  const { store } = sessions;
  const { length } = store;
  if (typeof length !== 'function') return null;
  return () =>
    new Promise<number>((resolve, reject) => {
      length.call(store, (error: unknown, value?: number) => (error ? reject(error) : resolve(value ?? 0)));
    });
}
