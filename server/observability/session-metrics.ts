import { sql } from 'kysely';
import type { Logger } from 'pino';
import { credentialStampOf } from '../auth/user-store';
import type { SessionStorage } from '../storage/session-storage';
import type { StorageEngine } from '../storage/storage-engine';
import type { MetricsRegistry } from './metrics-registry';
import { withinScrapeDeadline } from './scrape-deadline';

/** A count slower than this is given up: a scrape must answer even when the pool is exhausted. */
export const SESSION_COUNT_TIMEOUT_MS = 1000;

/** Accounts read per query when checking whose sessions can still be used. */
const ACCOUNTS_PER_QUERY = 500;

/** The help text of `slots_sessions_active`: what it counts, as the operators' guide says it. */
export const SESSIONS_ACTIVE_HELP =
  'Sessions that can still be used, by store: stored, not expired, and signed in to an account that exists, is not ' +
  'disabled and has the password the session signed in with (every host sharing the store counts the same sessions).';

/**
 * Live sessions grouped by what they are signed in with, as passport keeps it (create-passport.ts): the account's id
 * and the credential stamp of the password it signed in with. Sessions signed in to nothing are left out.
 */
interface SignedInSessions {
  id: number;
  credentials: string;
  sessions: number;
}

/**
 * `slots_sessions_active{store}`: the sessions that can still be used, counted when Prometheus scrapes. A session is
 * stored and not expired, and passport would load its user (create-passport.ts): the account exists, is not disabled
 * (`npm run user:disable`), and its credential stamp is the session's (no change of password, nor a disabling, since
 * it signed in). Counting the stored sessions alone would count those of a disabled account until they expire, though
 * their next request is signed out. The sessions are grouped by account and stamp where they are stored (SQLite and
 * PostgreSQL in one query, Redis through the session store), then the accounts are read in one query per 500.
 *
 * A count that fails or takes longer than SESSION_COUNT_TIMEOUT_MS leaves the gauge out of that scrape (logged),
 * rather than failing or stalling `/metrics`: the pool figures beside it are what tells why.
 */
export function addSessionMetrics(
  metrics: MetricsRegistry,
  sessions: SessionStorage,
  storage: StorageEngine,
  logger: Logger,
): void {
  const signedIn = signedInSessionsReader(sessions, storage);
  if (signedIn === null) return;
  const count = async () => usableSessions(await signedIn(), storage);
  metrics.gauge({
    name: 'slots_sessions_active',
    help: SESSIONS_ACTIVE_HELP,
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

/** Of the live sessions, those whose account would be loaded by passport: it exists, is enabled, same stamp. */
async function usableSessions(signedIn: readonly SignedInSessions[], storage: StorageEngine): Promise<number> {
  const ids = [...new Set(signedIn.map((group) => group.id))];
  const stamps = new Map<number, string>();
  for (let start = 0; start < ids.length; start += ACCOUNTS_PER_QUERY) {
    const rows = await storage.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'sessions_since'])
      .where('disabled_at', 'is', null)
      .where('id', 'in', ids.slice(start, start + ACCOUNTS_PER_QUERY))
      .execute();
    for (const row of rows) stamps.set(row.id, credentialStampOf(row.password_hash, row.sessions_since));
  }
  return signedIn.reduce((sum, group) => sum + (stamps.get(group.id) === group.credentials ? group.sessions : 0), 0);
}

/** How the store's live sessions are read, grouped by what they are signed in with; null when it cannot tell. */
function signedInSessionsReader(
  sessions: SessionStorage,
  storage: StorageEngine,
): (() => Promise<SignedInSessions[]>) | null {
  if (sessions.kind === 'postgres' && storage.kind === 'postgres') {
    // connect-pg-simple's table: `sess` is JSON, `expire` says which sessions are still alive.
    return async () => {
      const { rows } = await sql<{ id: string; credentials: string; sessions: string }>`
        SELECT sess -> 'passport' -> 'user' ->> 'id' AS id,
               sess -> 'passport' -> 'user' ->> 'credentials' AS credentials,
               count(*) AS sessions
        FROM sessions
        WHERE expire > now()
          AND json_typeof(sess -> 'passport' -> 'user' -> 'id') = 'number'
          AND json_typeof(sess -> 'passport' -> 'user' -> 'credentials') = 'string'
        GROUP BY 1, 2`.execute(storage.db);
      return rows.map((row) => ({ id: Number(row.id), credentials: row.credentials, sessions: Number(row.sessions) }));
    };
  }
  if (sessions.kind === 'sqlite' && storage.kind === 'sqlite') {
    // sqlite-session-store.ts's table, in the same file: `sess` is JSON text, `expires_at` milliseconds.
    return async () => {
      const { rows } = await sql<{ id: number; credentials: string; sessions: number }>`
        SELECT json_extract(sess, '$.passport.user.id') AS id,
               json_extract(sess, '$.passport.user.credentials') AS credentials,
               count(*) AS sessions
        FROM sessions
        WHERE expires_at > ${Date.now()}
          AND json_type(sess, '$.passport.user.id') = 'integer'
          AND json_type(sess, '$.passport.user.credentials') = 'text'
        GROUP BY 1, 2`.execute(storage.db);
      return rows.map((row) => ({ id: Number(row.id), credentials: row.credentials, sessions: Number(row.sessions) }));
    };
  }
  const { store } = sessions;
  const { all } = store;
  if (typeof all !== 'function') return null;
  // Redis: the store scans its keys (as its length() would) and reads them; a store that expires its entries itself.
  return () =>
    new Promise<SignedInSessions[]>((resolve, reject) => {
      all.call(store, (error: unknown, stored?: unknown) => {
        if (error) reject(error);
        else resolve(groupSignedIn(Object.values(stored ?? {})));
      });
    });
}

/** Groups sessions read whole (Redis) as the databases' queries do. */
function groupSignedIn(stored: readonly unknown[]): SignedInSessions[] {
  const groups = new Map<string, SignedInSessions>();
  for (const session of stored) {
    const user = (session as { passport?: { user?: { id?: unknown; credentials?: unknown } } } | null)?.passport?.user;
    if (!Number.isInteger(user?.id) || typeof user?.credentials !== 'string') continue;
    const id = user.id as number;
    const key = `${id}\0${user.credentials}`;
    const group = groups.get(key) ?? { id, credentials: user.credentials, sessions: 0 };
    group.sessions++;
    groups.set(key, group);
  }
  return [...groups.values()];
}
