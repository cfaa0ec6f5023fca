import type BetterSqlite3 from 'better-sqlite3';
import { CredentialStamps } from './credential-stamps';
import { keptOrOwnStamp } from './user-store';

/** The SQL function, on the app's connection, that gives an account's current credential stamp (user-store.ts). */
export const CREDENTIAL_STAMP_FUNCTION = 'slots_credential_stamp';

/**
 * The count, given the time (ms). Every column of `sessions` it needs is in `sessions_signed_in`; INDEXED BY keeps it
 * there whatever the planner estimates, since the expiry's index would mean reading and parsing every live session.
 */
export const SQLITE_SESSION_COUNT = `
  SELECT coalesce(sum(signed_in.sessions), 0)
  FROM (
    SELECT user_id, credentials, count(*) AS sessions
    FROM sessions INDEXED BY sessions_signed_in
    WHERE user_id IS NOT NULL AND expires_at > ?
    GROUP BY user_id, credentials
  ) AS signed_in
  JOIN users ON users.id = signed_in.user_id
  WHERE users.disabled_at IS NULL
    AND signed_in.credentials = ${CREDENTIAL_STAMP_FUNCTION}(
      users.id, users.password_hash, users.sessions_since, users.stamp_kept, users.stamp_kept_while
    )`;

/**
 * The usable sessions of the SQLite file, counted in one statement: the live sessions grouped by account and
 * credential stamp from the index `sessions_signed_in` alone (migration 13: the values of passport's entry computed
 * when a session is written, so no stored session is parsed here), each group joined to its account, kept when the
 * account is enabled and its current stamp is the group's. Its cost grows with the live sessions' index entries and
 * with the accounts signed in, not with the sessions' size.
 *
 * The stamp is user-store.ts's own function, called from SQL, each account's kept from one count to the next while
 * its password hash and `sessions_since` stay the same (credential-stamps.ts), or the stamp kept over a new hash of the
 * same password (user-store.ts's credentialStampOfRow).
 */
export function sqliteSessionCount(db: BetterSqlite3.Database): () => number {
  const stamps = new CredentialStamps();
  db.function(
    CREDENTIAL_STAMP_FUNCTION,
    { deterministic: true },
    (userId: unknown, passwordHash: unknown, sessionsSince: unknown, kept: unknown, keptWhile: unknown) =>
      keptOrOwnStamp(
        stamps.stampOf(Number(userId), String(passwordHash), sessionsSince === null ? null : Number(sessionsSince)),
        kept === null ? null : String(kept),
        keptWhile === null ? null : String(keptWhile),
      ),
  );
  // Prepared at the first count: a file without the index (never migrated so) fails the count, not the server's start.
  let count: BetterSqlite3.Statement<[number], number> | undefined;
  return () =>
    stamps.during(() => (count ??= db.prepare<[number], number>(SQLITE_SESSION_COUNT).pluck()).get(Date.now()) ?? 0);
}
