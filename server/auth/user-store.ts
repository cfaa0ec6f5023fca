import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../storage/app-schema';
import { StampedCache } from '../storage/stamped-cache';
import type { StorageEngine } from '../storage/storage-engine';
import type { StaffRole } from '../../shared/staff-roles';
import type { StaffUser } from './staff-user';

type UserRow = Pick<
  Selectable<UsersTable>,
  'id' | 'username' | 'display_name' | 'password_hash' | 'disabled_at' | 'role'
>;

const USER_COLUMNS = ['id', 'username', 'display_name', 'password_hash', 'disabled_at', 'role'] as const;

/** Staff accounts in the `users` table, on either engine. Usernames are unique regardless of case. */
export class UserStore {
  /** Accounts by id, as every signed-in request reads them (passport's deserializeUser). */
  private readonly byId: StampedCache<number, StaffUser | null>;

  constructor(private readonly engine: StorageEngine) {
    this.byId = new StampedCache(() => engine.changeStamp());
  }

  /** The account and its stored password hash, for the sign-in check; a disabled account has none. */
  async findCredentials(username: string): Promise<{ user: StaffUser; passwordHash: string } | undefined> {
    const row = await this.rowByUsername(username);
    return row && row.disabled_at === null ? { user: toUser(row), passwordHash: row.password_hash } : undefined;
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
    return row && row.disabled_at === null ? Object.freeze(toUser(row)) : null;
  };

  async findByUsername(username: string): Promise<StaffUser | undefined> {
    const row = await this.rowByUsername(username);
    return row ? toUser(row) : undefined;
  }

  /** Creates the account with `passwordHash`, or sets the hash of the existing one. */
  async upsert(
    username: string,
    passwordHash: string,
    displayName = username,
  ): Promise<{ user: StaffUser; created: boolean }> {
    const now = Date.now();
    const result = await this.engine.exclusive(async (db) => {
      const existing = await this.rowByUsername(username, db);
      if (existing) {
        await db
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: now })
          .where('id', '=', existing.id)
          .execute();
        return { user: { ...toUser(existing), credentialStamp: credentialStampOf(passwordHash) }, created: false };
      }
      const { id } = await db
        .insertInto('users')
        .values({ username, display_name: displayName, password_hash: passwordHash, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return {
        user: { id, username, displayName, credentialStamp: credentialStampOf(passwordHash), roles: [] },
        created: true,
      };
    });
    this.engine.noteWrite();
    return result;
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

  /** Disables (or enables again) the account; false when there is no such account. */
  async setDisabled(username: string, disabled: boolean): Promise<boolean> {
    const now = Date.now();
    const result = await this.engine.db
      .updateTable('users')
      .set({ disabled_at: disabled ? now : null, updated_at: now })
      .where(this.engine.dialect.usernameIs(username))
      .executeTakeFirst();
    const changed = Number(result.numUpdatedRows) > 0;
    if (changed) this.engine.noteWrite();
    return changed;
  }

  /** Gives the account a role (or none with null); false when there is no such account. */
  async setRole(username: string, role: StaffRole | null): Promise<boolean> {
    const result = await this.engine.db
      .updateTable('users')
      .set({ role, updated_at: Date.now() })
      .where(this.engine.dialect.usernameIs(username))
      .executeTakeFirst();
    const changed = Number(result.numUpdatedRows) > 0;
    if (changed) this.engine.noteWrite();
    return changed;
  }

  /** Whether the account exists and is disabled. */
  async isDisabled(username: string): Promise<boolean> {
    return ((await this.rowByUsername(username))?.disabled_at ?? null) !== null;
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

function toUser(row: UserRow): StaffUser {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    credentialStamp: credentialStampOf(row.password_hash),
    roles: row.role === null ? [] : [row.role],
  };
}

/** Sixteen characters of a SHA-256 of the stored hash: enough to tell two hashes apart, nothing to crack. */
export function credentialStampOf(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64url').slice(0, 16);
}
