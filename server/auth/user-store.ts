import { createHash } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { AppDatabase } from '../storage/app-database';
import { StampedCache } from '../storage/stamped-cache';
import type { StaffUser } from './staff-user';

interface UserRow {
  id: number;
  username: string;
  display_name: string;
  password_hash: string;
  disabled_at: number | null;
}

const USER_COLUMNS = 'id, username, display_name, password_hash, disabled_at';

/** Staff accounts in the `users` table. Usernames are unique regardless of case. */
export class UserStore {
  private readonly statements: {
    byUsername: BetterSqlite3.Statement<[string], UserRow>;
    byId: BetterSqlite3.Statement<[number], UserRow>;
    insert: BetterSqlite3.Statement<[string, string, string, number, number]>;
    updatePassword: BetterSqlite3.Statement<[string, number, number]>;
    setDisabledAt: BetterSqlite3.Statement<[number | null, number, string]>;
    count: BetterSqlite3.Statement<[], number>;
  };

  /** Accounts by id, as every signed-in request reads them (passport's deserializeUser). */
  private readonly byId: StampedCache<number, StaffUser | null>;

  constructor(private readonly database: AppDatabase) {
    const db = database.db;
    this.byId = new StampedCache(() => database.turnChangeStamp());
    this.statements = {
      byUsername: db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE username = ?`),
      byId: db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`),
      insert: db.prepare(
        'INSERT INTO users (username, display_name, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      ),
      updatePassword: db.prepare('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?'),
      setDisabledAt: db.prepare('UPDATE users SET disabled_at = ?, updated_at = ? WHERE username = ?'),
      count: db.prepare<[], number>('SELECT COUNT(*) FROM users').pluck(),
    };
  }

  /** The account and its stored password hash, for the sign-in check; a disabled account has none. */
  findCredentials(username: string): { user: StaffUser; passwordHash: string } | undefined {
    const row = this.statements.byUsername.get(username);
    return row && row.disabled_at === null ? { user: toUser(row), passwordHash: row.password_hash } : undefined;
  }

  /**
   * The account, from a cache that any committed write empties (so a deleted or disabled account is gone at once:
   * its sessions end at their next request).
   */
  findById(id: number): StaffUser | undefined {
    return this.byId.get(id, this.loadById) ?? undefined;
  }

  private readonly loadById = (id: number): StaffUser | null => {
    const row = this.statements.byId.get(id);
    return row && row.disabled_at === null ? Object.freeze(toUser(row)) : null;
  };

  findByUsername(username: string): StaffUser | undefined {
    const row = this.statements.byUsername.get(username);
    return row ? toUser(row) : undefined;
  }

  /** Creates the account with `passwordHash`, or sets the hash of the existing one. */
  upsert(username: string, passwordHash: string, displayName = username): { user: StaffUser; created: boolean } {
    const now = Date.now();
    const result = this.database.db.transaction(() => {
      const existing = this.statements.byUsername.get(username);
      if (existing) {
        this.statements.updatePassword.run(passwordHash, now, existing.id);
        return { user: { ...toUser(existing), credentialStamp: credentialStampOf(passwordHash) }, created: false };
      }
      const id = Number(this.statements.insert.run(username, displayName, passwordHash, now, now).lastInsertRowid);
      return { user: { id, username, displayName, credentialStamp: credentialStampOf(passwordHash) }, created: true };
    })();
    this.database.noteWrite();
    return result;
  }

  /** Creates the account only when no account has that name; false when one existed (it is left untouched). */
  createIfMissing(username: string, passwordHash: string, displayName = username): boolean {
    const now = Date.now();
    const changes = this.database.db
      .prepare(
        `INSERT INTO users (username, display_name, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (username) DO NOTHING`,
      )
      .run(username, displayName, passwordHash, now, now).changes;
    if (changes > 0) this.database.noteWrite();
    return changes > 0;
  }

  /** Disables (or enables again) the account; false when there is no such account. */
  setDisabled(username: string, disabled: boolean): boolean {
    const now = Date.now();
    const changes = this.statements.setDisabledAt.run(disabled ? now : null, now, username).changes;
    if (changes > 0) this.database.noteWrite();
    return changes > 0;
  }

  /** Whether the account exists and is disabled. */
  isDisabled(username: string): boolean {
    return (this.statements.byUsername.get(username)?.disabled_at ?? null) !== null;
  }

  count(): number {
    return this.statements.count.get() ?? 0;
  }
}

function toUser(row: UserRow): StaffUser {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    credentialStamp: credentialStampOf(row.password_hash),
  };
}

/** Sixteen characters of a SHA-256 of the stored hash: enough to tell two hashes apart, nothing to crack. */
export function credentialStampOf(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64url').slice(0, 16);
}
