import { sql } from 'kysely';
import type { StorageEngine } from '../storage/storage-engine';
import { refuseLosingLastAdministrator, type AccessSnapshot } from './administrators';

/** What removing an account takes away with it (or would, for a plan). */
export interface AccountRemoval {
  /** The account's id, which its sessions name (endRedisSessionsOf). */
  id: number;
  username: string;
  /** The tenants it belonged to, by id. */
  tenants: readonly string[];
  /** The permissions granted to it on top of its roles'. */
  grants: readonly string[];
  /** Idempotency keys of record creations of the last day: they answer that account's retries only. */
  recordCreationKeys: number;
}

/** No account of that name: nothing was changed. */
export class NoSuchAccountError extends Error {
  constructor(username: string, where: string) {
    super(`There is no account "${username}" in ${where}. Nothing was changed.`);
    this.name = 'NoSuchAccountError';
  }
}

/**
 * Removes an account and what belongs to it alone (its memberships, its grants, its idempotency keys), in one
 * exclusive transaction: all of it or nothing. `planOnly`: checks and counts the same way, changes nothing (what a
 * command shows before asking).
 *
 * History is kept: the audit trails, releases, rollout plans and placement revisions name their actor by username, as
 * text with no reference to `users`, so they stay readable once the account is gone. Records keep no author.
 *
 * Its sessions in the database (SQLite's or PostgreSQL's `sessions`, by the account's id that migration 13 keeps
 * beside each) are deleted in the same transaction; those in Redis, which the database cannot reach, are deleted by
 * endRedisSessionsOf (redis-account-sessions.ts), which user:remove runs when REDIS_URL is set. Deleted or not, a
 * session of the account is refused at its next request on every instance: passport reads the account back on every
 * request (create-passport.ts) from a cache any committed write empties, and finds none. A later account given the
 * same id (SQLite may hand out the highest id again) has another credential stamp, so an old session never becomes it.
 */
export async function removeAccount(
  engine: StorageEngine,
  username: string,
  where: string,
  { planOnly = false }: { planOnly?: boolean } = {},
): Promise<AccountRemoval> {
  const removal = await engine.exclusive(async (db) => {
    const row = await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where(engine.dialect.usernameIs(username))
      .executeTakeFirst();
    if (!row) throw new NoSuchAccountError(username, where);
    const before = await refuseLosingLastAdministrator(db, engine.dialect, (snapshot) => without(snapshot, row.id));

    const tenants = [...(before.memberships.get(row.id)?.keys() ?? [])];
    const grants = before.accounts.find((account) => account.user.id === row.id)?.user.grantedPermissions ?? [];
    const { count } = await db
      .selectFrom('record_creations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', row.id)
      .executeTakeFirstOrThrow();
    const found: AccountRemoval = {
      id: row.id,
      username: row.username,
      tenants: before.tenantIds.filter((id) => tenants.includes(id)),
      grants,
      recordCreationKeys: Number(count),
    };
    if (planOnly) return found;
    // Said one by one rather than left to ON DELETE CASCADE: what goes is what this function names.
    await db.deleteFrom('memberships').where('user_id', '=', row.id).execute();
    await db.deleteFrom('user_permissions').where('user_id', '=', row.id).execute();
    await db.deleteFrom('record_creations').where('user_id', '=', row.id).execute();
    // Not in the Kysely schema (the session stores write it); both engines' tables have the generated user_id.
    await sql`DELETE FROM sessions WHERE user_id = ${row.id}`.execute(db);
    await db.deleteFrom('users').where('id', '=', row.id).execute();
    return found;
  });
  if (!planOnly) engine.noteWrite();
  return removal;
}

/** The snapshot as it would be without the account. */
function without(snapshot: AccessSnapshot, userId: number): AccessSnapshot {
  const memberships = new Map(snapshot.memberships);
  memberships.delete(userId);
  return { ...snapshot, accounts: snapshot.accounts.filter((account) => account.user.id !== userId), memberships };
}
