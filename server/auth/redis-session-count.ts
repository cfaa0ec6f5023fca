import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RedisStore } from 'connect-redis';
import type { RedisClientType } from 'redis';
import { credentialStampOfRow } from './user-store';
import type { StorageEngine } from '../storage/storage-engine';

/** Session keys read per SCAN and MGET: the server parses one batch between two answers of Redis. */
export const SESSION_KEYS_PER_READ = 1000;

/** Accounts read per query when checking whose sessions can still be used. */
const ACCOUNTS_PER_QUERY = 500;

/** Live sessions of one account signed in with one credential stamp, as passport keeps it (create-passport.ts). */
interface SignedInSessions {
  id: number;
  credentials: string;
  sessions: number;
}

/**
 * The usable sessions in Redis, which has no index to count from: every session key is read, a batch of
 * SESSION_KEYS_PER_READ at a time (SCAN, then MGET of the keys not seen yet: SCAN may return a key twice), and each
 * batch parsed while Redis answers the next request, so the server is never held for more than one batch. The
 * sessions are grouped by account and stamp; the accounts are then read from the database, 500 per query, with a
 * turn of the event loop between two queries. Redis expires its keys itself: every key read is a live session.
 * A value that is not a session (not JSON) is nobody's, as in the databases. Once `scrapeOver` is aborted (the scrape
 * gave the count up), it stops before its next read.
 */
export function redisSessionCount(
  store: RedisStore,
  storage: StorageEngine,
): (scrapeOver?: AbortSignal) => Promise<number> {
  const client = store.client as RedisClientType;
  return async (scrapeOver) => {
    const seen = new Set<string>();
    const groups = new Map<string, SignedInSessions>();
    for await (const keys of client.scanIterator({ MATCH: `${store.prefix}*`, COUNT: SESSION_KEYS_PER_READ })) {
      scrapeOver?.throwIfAborted();
      const fresh = keys.filter((key) => !seen.has(key));
      for (const key of fresh) seen.add(key);
      // COUNT is a hint: SCAN may answer more keys than asked.
      for (let start = 0; start < fresh.length; start += SESSION_KEYS_PER_READ) {
        if (start > 0) scrapeOver?.throwIfAborted();
        for (const raw of await client.mGet(fresh.slice(start, start + SESSION_KEYS_PER_READ))) {
          if (raw !== null) addSignedIn(groups, parsed(raw));
        }
      }
    }
    return usableSessions([...groups.values()], storage, scrapeOver);
  };
}

function parsed(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** Counts the session in its group when it is signed in as create-passport.ts signs in: a whole id and a stamp. */
function addSignedIn(groups: Map<string, SignedInSessions>, session: unknown): void {
  const user = (session as { passport?: { user?: { id?: unknown; credentials?: unknown } } } | null)?.passport?.user;
  if (!Number.isInteger(user?.id) || typeof user?.credentials !== 'string') return;
  const id = user.id as number;
  const key = `${id}\0${user.credentials}`;
  const group = groups.get(key) ?? { id, credentials: user.credentials, sessions: 0 };
  group.sessions++;
  groups.set(key, group);
}

/** Of the live sessions, those whose account would be loaded by passport: it exists, is enabled, same stamp. */
async function usableSessions(
  signedIn: readonly SignedInSessions[],
  storage: StorageEngine,
  scrapeOver: AbortSignal | undefined,
): Promise<number> {
  const ids = [...new Set(signedIn.map((group) => group.id))];
  const stamps = new Map<number, string>();
  for (let start = 0; start < ids.length; start += ACCOUNTS_PER_QUERY) {
    // SQLite answers synchronously: without this, thousands of accounts would be read in one turn.
    if (start > 0) await nextTurn();
    scrapeOver?.throwIfAborted();
    const rows = await storage.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'sessions_since', 'stamp_kept', 'stamp_kept_while'])
      .where('disabled_at', 'is', null)
      .where('id', 'in', ids.slice(start, start + ACCOUNTS_PER_QUERY))
      .execute();
    for (const row of rows) stamps.set(row.id, credentialStampOfRow(row));
  }
  return signedIn.reduce((sum, group) => sum + (stamps.get(group.id) === group.credentials ? group.sessions : 0), 0);
}
