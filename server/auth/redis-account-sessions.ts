import type { RedisStore } from 'connect-redis';
import type { RedisClientType } from 'redis';
import { SESSION_KEYS_PER_READ } from './redis-session-count';

/** Redis failed partway through endRedisSessionsOf: `deleted` of the account's sessions were deleted before it did. */
export class RedisSessionsNotAllEndedError extends Error {
  constructor(
    readonly deleted: number,
    readonly reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'RedisSessionsNotAllEndedError';
  }
}

/**
 * Deletes the sessions in Redis signed in as the account `userId` (passport's entry, create-passport.ts), as removing
 * the account deletes those in a database (account-removal.ts): Redis has no index by account, so every session key
 * is read, a batch at a time as the session count reads them (SCAN, then MGET), and the account's are deleted batch by
 * batch. Answers how many were deleted. Run after the account is gone: a session of it that a request saves again
 * meanwhile is refused all the same (no account to read back), and expires. A Redis failing meanwhile throws
 * RedisSessionsNotAllEndedError with how many were deleted before it: the account is gone by then, and the caller says
 * so, with what is left, rather than a plain failure.
 */
export async function endRedisSessionsOf(store: RedisStore, userId: number): Promise<number> {
  const client = store.client as RedisClientType;
  let deleted = 0;
  try {
    for await (const keys of client.scanIterator({ MATCH: `${store.prefix}*`, COUNT: SESSION_KEYS_PER_READ })) {
      // COUNT is a hint: SCAN may answer more keys than asked (or a key twice, which DEL counts once).
      for (let start = 0; start < keys.length; start += SESSION_KEYS_PER_READ) {
        const batch = keys.slice(start, start + SESSION_KEYS_PER_READ);
        const values = await client.mGet(batch);
        const theirs = batch.filter((_key, index) => signedInAs(values[index] ?? null) === userId);
        if (theirs.length > 0) deleted += await client.del(theirs);
      }
    }
  } catch (error) {
    throw new RedisSessionsNotAllEndedError(deleted, error);
  }
  return deleted;
}

/** The account id a stored session is signed in as, as create-passport.ts writes it; null for none or not JSON. */
function signedInAs(raw: string | null): number | null {
  if (raw === null) return null;
  try {
    const id = (JSON.parse(raw) as { passport?: { user?: { id?: unknown } } } | null)?.passport?.user?.id;
    return Number.isInteger(id) ? (id as number) : null;
  } catch {
    return null;
  }
}
