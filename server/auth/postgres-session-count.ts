import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { AppSchema } from '../storage/app-schema';

/**
 * user-store.ts's credentialStampOf in PostgreSQL's SQL, of the `users` row in the query: the first sixteen characters
 * of the base64url SHA-256 of the password hash, followed by a line feed and `sessions_since` when it is set.
 */
const POSTGRES_OWN_STAMP: RawBuilder<string> = sql<string>`left(translate(encode(sha256(convert_to(
  users.password_hash || coalesce(chr(10) || users.sessions_since::text, ''), 'UTF8')), 'base64'), '+/', '-_'), 16)`;

/**
 * user-store.ts's credentialStampOfRow: the row's own stamp, or the one kept over a new hash of the same password
 * while the row's own is still the one written with it. Kept equal to it by postgres-session-count.test.ts.
 */
export const POSTGRES_CREDENTIAL_STAMP: RawBuilder<string> = sql<string>`CASE
  WHEN users.stamp_kept IS NOT NULL AND users.stamp_kept_while = ${POSTGRES_OWN_STAMP} THEN users.stamp_kept
  ELSE ${POSTGRES_OWN_STAMP} END`;

/** The count: the live sessions' groups from the index, joined to their accounts (see postgresSessionCount). */
export const POSTGRES_SESSION_COUNT: RawBuilder<{ sessions: number | string }> = sql<{ sessions: number | string }>`
  SELECT coalesce(sum(signed_in.sessions), 0)::bigint AS sessions
  FROM (
    SELECT user_id, credentials, count(*) AS sessions
    FROM sessions
    WHERE user_id IS NOT NULL AND expire > now()
    GROUP BY user_id, credentials
  ) AS signed_in
  JOIN users ON users.id = signed_in.user_id
  WHERE users.disabled_at IS NULL AND signed_in.credentials = ${POSTGRES_CREDENTIAL_STAMP}`;

/**
 * The usable sessions of PostgreSQL's `sessions` table, counted in one statement by the server: the live sessions
 * grouped by account and credential stamp from the index `sessions_signed_in` (migration 13: columns computed when
 * connect-pg-simple writes a session, so no stored JSON is parsed here), each group joined to its account and kept
 * when the account is enabled and its current stamp, computed in SQL, is the group's. Only the count comes back.
 */
export function postgresSessionCount(db: Kysely<AppSchema>): () => Promise<number> {
  return async () => {
    const { rows } = await POSTGRES_SESSION_COUNT.execute(db);
    return Number(rows[0]?.sessions ?? 0);
  };
}
