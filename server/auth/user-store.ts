/**
 * Every read and write of the staff accounts' table, in one class (over 300 lines): the cached list the sign-in and
 * the session reads share, and the writes that must keep it and each other consistent (a password set or upgraded, a
 * role, an account disabled), each of which changes what the others read.
 */
import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { isStaffPermission, STAFF_PERMISSIONS, type StaffPermission } from '../../shared/staff-permissions';
import type { AppSchema, UsersTable } from '../storage/app-schema';
import { StampedCache } from '../storage/stamped-cache';
import { passwordGenerationOf, passwordGenerationOfRow } from './password-generation';
import type { StorageEngine } from '../storage/storage-engine';
import type { StaffRole } from '../../shared/staff-roles';
import type { StaffUser } from './staff-user';
import { USERNAME_MAX_LENGTH } from './username';

const USER_COLUMNS = [
  'id',
  'username',
  'display_name',
  'password_hash',
  'disabled_at',
  'sessions_since',
  'role',
  'stamp_kept',
  'stamp_kept_while',
  'generation_kept',
  'generation_kept_while',
] as const;

type UserRow = Pick<Selectable<UsersTable>, (typeof USER_COLUMNS)[number]>;

/**
 * Staff accounts in the `users` table, on either engine. Usernames are unique regardless of case. The writes take an
 * optional `within`, a transaction's (account-change.ts makes several changes and their check in one): its caller
 * notes the write once committed.
 */
export class UserStore {
  /** Accounts by id, as every signed-in request reads them (passport's deserializeUser). */
  private readonly byId: StampedCache<number, StaffUser | null>;

  constructor(private readonly engine: StorageEngine) {
    this.byId = new StampedCache(() => engine.changeStamp());
  }

  /** The account and its stored password hash, for the sign-in check; a disabled account has none. */
  async findCredentials(username: string): Promise<{ user: StaffUser; passwordHash: string } | undefined> {
    const row = await this.rowByUsername(username);
    if (!row || row.disabled_at !== null) return undefined;
    return { user: toUser(row, await this.grantedTo(row.id)), passwordHash: row.password_hash };
  }

  /**
   * The account, its stored password hash and whether it is disabled, for POST /login: a disabled account's password
   * is checked as any other's (a wrong one is refused the same way, at the same cost), and only the right one is
   * told that the account is disabled (credential-checker.ts).
   */
  async findSignInCredentials(
    username: string,
  ): Promise<{ user: StaffUser; passwordHash: string; disabled: boolean } | undefined> {
    const row = await this.rowByUsername(username);
    if (!row) return undefined;
    return {
      user: toUser(row, await this.grantedTo(row.id)),
      passwordHash: row.password_hash,
      disabled: row.disabled_at !== null,
    };
  }

  /**
   * The account, from a cache that any committed write empties (so a deleted or disabled account is gone at once:
   * its sessions end at their next request).
   */
  async findById(id: number): Promise<StaffUser | undefined> {
    return (await this.byId.get(id, this.loadById)) ?? undefined;
  }

  private readonly loadById = async (id: number): Promise<StaffUser | null> => {
    const row = await this.engine.db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && row.disabled_at === null ? Object.freeze(toUser(row, await this.grantedTo(row.id))) : null;
  };

  async findByUsername(username: string): Promise<StaffUser | undefined> {
    const row = await this.rowByUsername(username);
    return row ? toUser(row, await this.grantedTo(row.id)) : undefined;
  }

  /**
   * Which password the account has now, as a short digest of its hash ('' for no such account;
   * password-generation.ts): the sign-in counters of an account are kept per password (login-rate-limiter.ts), so a
   * new one set by user:add starts them again, while the same password hashed again with stronger parameters
   * (rehashPassword) keeps the generation of before, and with it the failures counted. Reads the columns it needs
   * alone: it runs before every sign-in attempt is counted.
   */
  async passwordGeneration(username: string): Promise<string> {
    if (username === '' || username.length > USERNAME_MAX_LENGTH) return '';
    const row = await this.engine.db
      .selectFrom('users')
      .select(['password_hash', 'generation_kept', 'generation_kept_while'])
      .where(this.engine.dialect.usernameIs(username))
      .executeTakeFirst();
    return row ? passwordGenerationOfRow(row) : '';
  }

  /** Creates the account with `passwordHash`, or sets the hash of the existing one. */
  async upsert(
    username: string,
    passwordHash: string,
    displayName = username,
    within?: Kysely<AppSchema>,
  ): Promise<{ user: StaffUser; created: boolean }> {
    const now = Date.now();
    const work = async (db: Kysely<AppSchema>) => {
      const existing = await this.rowByUsername(username, db);
      if (existing) {
        // A stamp or generation kept over an upgrade of the hash before would not count with another hash (the row's
        // own is another then): cleared all the same, so the row says what holds. The same hash changes nothing.
        const written =
          passwordHash === existing.password_hash
            ? {}
            : {
                password_hash: passwordHash,
                stamp_kept: null,
                stamp_kept_while: null,
                generation_kept: null,
                generation_kept_while: null,
              };
        await db
          .updateTable('users')
          .set({ ...written, updated_at: now })
          .where('id', '=', existing.id)
          .execute();
        const user = toUser({ ...existing, ...written }, await this.grantedTo(existing.id, db));
        return { user, created: false };
      }
      const { id } = await db
        .insertInto('users')
        .values({ username, display_name: displayName, password_hash: passwordHash, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return {
        user: {
          id,
          username,
          displayName,
          credentialStamp: credentialStampOf(passwordHash, null),
          roles: [],
          grantedPermissions: [],
        },
        created: true,
      };
    };
    if (within) return work(within);
    const result = await this.engine.exclusive(work);
    this.engine.noteWrite();
    return result;
  }

  /**
   * Replaces the account's password hash by `replacement` (the same password hashed with today's parameters) if it
   * still is `expected` and the account is not disabled: the account as it is now. Its credential stamp stays the
   * one its sessions carry (kept in `stamp_kept`, while the row's own stamp is the one written with it), and its
   * password generation the one its sign-in counts are kept under (`generation_kept`, likewise): the password is the
   * same, so no session ends and the failures counted before still count. Undefined, with nothing written, when the
   * account changed since `expected` was read (a new password, an upgrade by another sign-in, disabled or removed).
   */
  async rehashPassword(id: number, expected: string, replacement: string): Promise<StaffUser | undefined> {
    const user = await this.engine.exclusive(async (db) => {
      const row = await db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
      if (!row || row.disabled_at !== null || row.password_hash !== expected) return undefined;
      const kept = {
        password_hash: replacement,
        stamp_kept: credentialStampOfRow(row),
        stamp_kept_while: credentialStampOf(replacement, row.sessions_since),
        generation_kept: passwordGenerationOfRow(row),
        generation_kept_while: passwordGenerationOf(replacement),
      };
      await db
        .updateTable('users')
        .set({ ...kept, updated_at: Date.now() })
        .where('id', '=', id)
        .execute();
      return toUser({ ...row, ...kept }, await this.grantedTo(id, db));
    });
    if (user) this.engine.noteWrite();
    return user;
  }

  /** Creates the account only when no account has that name; false when one existed (it is left untouched). */
  async createIfMissing(username: string, passwordHash: string, displayName = username): Promise<boolean> {
    const now = Date.now();
    const inserted = await this.engine.db
      .insertInto('users')
      .values({ username, display_name: displayName, password_hash: passwordHash, created_at: now, updated_at: now })
      // No conflict target: the unique index is on the name's case-folded form, whichever way the engine keeps it.
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) this.engine.noteWrite();
    return inserted !== undefined;
  }

  /**
   * Disables (or enables again) the account; false when there is no such account. Disabling ends its sessions for
   * good: enabling it again brings none of them back (`sessions_since`, in its credential stamp).
   */
  async setDisabled(username: string, disabled: boolean, within?: Kysely<AppSchema>): Promise<boolean> {
    const now = Date.now();
    const result = await (within ?? this.engine.db)
      .updateTable('users')
      .set(
        disabled ? { disabled_at: now, sessions_since: now, updated_at: now } : { disabled_at: null, updated_at: now },
      )
      .where(this.engine.dialect.usernameIs(username))
      .executeTakeFirst();
    const changed = Number(result.numUpdatedRows) > 0;
    if (changed && !within) this.engine.noteWrite();
    return changed;
  }

  /** Gives the account a role (or none with null); false when there is no such account. */
  async setRole(username: string, role: StaffRole | null, within?: Kysely<AppSchema>): Promise<boolean> {
    const result = await (within ?? this.engine.db)
      .updateTable('users')
      .set({ role, updated_at: Date.now() })
      .where(this.engine.dialect.usernameIs(username))
      .executeTakeFirst();
    const changed = Number(result.numUpdatedRows) > 0;
    if (changed && !within) this.engine.noteWrite();
    return changed;
  }

  /**
   * Makes `permissions` exactly the ones granted to the account (on top of its roles'); false when there is no such
   * account. Unknown names are refused before anything is written.
   */
  async setGrantedPermissions(
    username: string,
    permissions: readonly string[],
    within?: Kysely<AppSchema>,
  ): Promise<boolean> {
    return this.changeGrants(username, permissions, () => permissions, within);
  }

  /** Grants these permissions too (those already granted stay); false when there is no such account. */
  async grant(username: string, permissions: readonly string[]): Promise<boolean> {
    return this.changeGrants(username, permissions, (held) => [...held, ...permissions]);
  }

  /** Takes these permissions back (a role's own are not touched); false when there is no such account. */
  async revoke(username: string, permissions: readonly string[]): Promise<boolean> {
    return this.changeGrants(username, permissions, (held) => held.filter((each) => !permissions.includes(each)));
  }

  private async changeGrants(
    username: string,
    named: readonly string[],
    next: (held: readonly StaffPermission[]) => readonly string[],
    within?: Kysely<AppSchema>,
  ): Promise<boolean> {
    const unknown = named.find((permission) => !isStaffPermission(permission));
    if (unknown !== undefined) throw new UnknownPermissionError(unknown);
    const work = async (db: Kysely<AppSchema>) => {
      const row = await this.rowByUsername(username, db);
      if (!row) return false;
      const wanted = [...new Set(next(await this.grantedTo(row.id, db)))];
      await db.deleteFrom('user_permissions').where('user_id', '=', row.id).execute();
      if (wanted.length > 0) {
        await db
          .insertInto('user_permissions')
          .values(wanted.map((permission) => ({ user_id: row.id, permission })))
          .execute();
      }
      await db.updateTable('users').set({ updated_at: Date.now() }).where('id', '=', row.id).execute();
      return true;
    };
    if (within) return work(within);
    const changed = await this.engine.exclusive(work);
    if (changed) this.engine.noteWrite();
    return changed;
  }

  /** The permissions granted to the account, in STAFF_PERMISSIONS order (a name no longer known is skipped). */
  private async grantedTo(userId: number, db: Kysely<AppSchema> = this.engine.db): Promise<StaffPermission[]> {
    const rows = await db.selectFrom('user_permissions').select('permission').where('user_id', '=', userId).execute();
    const held = new Set(rows.map((row) => row.permission));
    return STAFF_PERMISSIONS.filter((permission) => held.has(permission));
  }

  /** Whether the account exists and is disabled. */
  async isDisabled(username: string): Promise<boolean> {
    return ((await this.rowByUsername(username))?.disabled_at ?? null) !== null;
  }

  /**
   * Every account, disabled ones included, by username, each with its grants: what `npm run user:list` prints. Read
   * in two statements whatever the number of accounts (the grants of all at once).
   */
  async list(): Promise<ListedAccount[]> {
    const rows = await this.engine.db.selectFrom('users').select(USER_COLUMNS).orderBy('username').execute();
    const grants = await this.engine.db.selectFrom('user_permissions').select(['user_id', 'permission']).execute();
    const heldBy = new Map<number, Set<string>>();
    for (const { user_id, permission } of grants)
      heldBy.set(user_id, (heldBy.get(user_id) ?? new Set()).add(permission));
    return rows.map((row) => {
      const held = heldBy.get(row.id) ?? new Set<string>();
      const user = toUser(
        row,
        STAFF_PERMISSIONS.filter((permission) => held.has(permission)),
      );
      return { ...user, disabled: row.disabled_at !== null };
    });
  }

  async count(): Promise<number> {
    const { count } = await this.engine.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  private rowByUsername(username: string, db = this.engine.db): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where(this.engine.dialect.usernameIs(username))
      .executeTakeFirst();
  }
}

function toUser(row: UserRow, grantedPermissions: readonly StaffPermission[]): StaffUser {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    credentialStamp: credentialStampOfRow(row),
    roles: row.role === null ? [] : [row.role],
    grantedPermissions: Object.freeze([...grantedPermissions]),
  };
}

/** An account as `npm run user:list` shows it: disabled ones are listed too, and said to be. */
export interface ListedAccount extends StaffUser {
  disabled: boolean;
}

/** A permission name that shared/staff-permissions.ts does not know: nothing was written. */
export class UnknownPermissionError extends Error {
  constructor(readonly permission: string) {
    super(`Unknown permission "${permission}". Permissions: ${STAFF_PERMISSIONS.join(', ')}.`);
    this.name = 'UnknownPermissionError';
  }
}

/**
 * Sixteen characters of a SHA-256 of the stored hash (and of the time sessions before which are refused, once the
 * account was disabled): enough to tell two apart, nothing to crack. A session keeps the stamp it signed in with, so
 * a new password, or disabling the account, ends it even once the account is enabled again.
 */
export function credentialStampOf(passwordHash: string, sessionsSince: number | null): string {
  const hash = createHash('sha256').update(passwordHash);
  // Without a time the stamp is the hash's alone, as before the column existed: no session is signed out by it.
  if (sessionsSince !== null) hash.update(`\n${sessionsSince}`);
  return hash.digest('base64url').slice(0, 16);
}

/** The columns of a `users` row that its credential stamp is made from. */
export type StampedRow = Pick<UserRow, 'password_hash' | 'sessions_since' | 'stamp_kept' | 'stamp_kept_while'>;

/**
 * The account's credential stamp, the one its sessions must carry: the row's own (credentialStampOf), unless a
 * sign-in since hashed the same password again with stronger parameters and nothing changed after, then the stamp
 * from before (`stamp_kept`, rehashPassword). A new password or a disabling, by any release's host, changes the
 * row's own stamp, so the kept one no longer counts. The session counts compute the same in SQL
 * (sqlite-session-count.ts, postgres-session-count.ts).
 */
export function credentialStampOfRow(row: StampedRow): string {
  return keptOrOwnStamp(credentialStampOf(row.password_hash, row.sessions_since), row.stamp_kept, row.stamp_kept_while);
}

/** `own`, the row's own stamp, or the stamp kept over a new hash of the same password while `own` is `keptWhile`. */
export function keptOrOwnStamp(own: string, kept: string | null, keptWhile: string | null): string {
  return kept !== null && keptWhile === own ? kept : own;
}
