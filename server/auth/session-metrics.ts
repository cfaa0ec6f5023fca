import type { RedisStore } from 'connect-redis';
import type { Logger } from 'pino';
import type { SessionStorage } from '../storage/session-storage';
import { SqliteEngine } from '../storage/sqlite-engine';
import type { StorageEngine } from '../storage/storage-engine';
import type { MetricsRegistry } from '../observability/metrics-registry';
import { postgresSessionCount } from './postgres-session-count';
import { redisSessionCount } from './redis-session-count';
import { withinDeadline } from '../storage/within-deadline';
import { sqliteSessionCount } from './sqlite-session-count';

/** A count slower than this is given up: a scrape must answer even when the pool is exhausted. */
export const SESSION_COUNT_TIMEOUT_MS = 1000;

/** The help text of `slots_sessions_active`: what it counts, as the operators' guide says it. */
export const SESSIONS_ACTIVE_HELP =
  'Sessions that can still be used, by store: stored, not expired, and signed in to an account that exists, is not ' +
  'disabled and has the password the session signed in with (every host sharing the store counts the same sessions).';

/**
 * `slots_sessions_active{store}`: the sessions that can still be used, counted when Prometheus scrapes. A session is
 * stored and not expired, and passport would load its user (create-passport.ts): the account exists, is not disabled
 * (`npm run user:disable`), and its credential stamp is the session's (no change of password, nor a disabling, since
 * it signed in). Counting the stored sessions alone would count those of a disabled account until they expire, though
 * their next request is signed out.
 *
 * Each scrape counts afresh, so a change is seen by the next scrape. SQLite and PostgreSQL count in one statement from
 * an index of the sessions by account and stamp (sqlite-session-count.ts, postgres-session-count.ts): SQLite answers
 * on the server's only thread, so parsing every stored session there would hold every request meanwhile. Redis has no
 * such index: its sessions are read in batches (redis-session-count.ts).
 *
 * A count that fails or takes longer than SESSION_COUNT_TIMEOUT_MS leaves the gauge out of that scrape (logged),
 * rather than failing or stalling `/metrics`: the pool figures beside it are what tells why. A count given up stops
 * reading where it can, so that slow counts do not pile up scrape after scrape.
 */
export function addSessionMetrics(
  metrics: MetricsRegistry,
  sessions: SessionStorage,
  storage: StorageEngine,
  logger: Logger,
): void {
  const count = sessionCount(sessions, storage);
  if (count === null) return;
  metrics.gauge({
    name: 'slots_sessions_active',
    help: SESSIONS_ACTIVE_HELP,
    // Labelled so that a count given up leaves no series at all, rather than an unlabelled 0 that would be a lie.
    labelNames: ['store'] as const,
    async collect() {
      const scrapeOver = new AbortController();
      try {
        // `then`: SQLite's count throws synchronously; it must be a rejection like the others'.
        const sessionsActive = Promise.resolve().then(() => count(scrapeOver.signal));
        this.set({ store: sessions.kind }, await withinDeadline(sessionsActive, SESSION_COUNT_TIMEOUT_MS));
      } catch (error) {
        this.reset();
        logger.warn({ err: error }, 'metrics: counting the sessions failed');
      } finally {
        // A count given up stops where it can (Redis: at its next batch), rather than run on beside the next scrape's.
        scrapeOver.abort();
      }
    },
  });
}

/** How the store's usable sessions are counted; null when it cannot tell. */
function sessionCount(
  sessions: SessionStorage,
  storage: StorageEngine,
): ((scrapeOver: AbortSignal) => number | Promise<number>) | null {
  // Sessions kept in the app's own database: the sessions table is in the same database as the accounts.
  if (sessions.kind === 'sqlite' && storage instanceof SqliteEngine) return sqliteSessionCount(storage.file.db);
  if (sessions.kind === 'postgres' && storage.kind === 'postgres') return postgresSessionCount(storage.db);
  if (sessions.kind === 'redis') return redisSessionCount(sessions.store as RedisStore, storage);
  return null;
}
