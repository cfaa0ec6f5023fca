import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import { assertOwnSqliteDatabase, migrate } from './migrate';
import { MIGRATIONS } from './migrations';
import { registerSqliteSortFold } from './sort-fold';

/**
 * The one embedded SQLite file of the server (users, tenants, memberships, sessions, records), opened in WAL mode
 * and migrated on open.
 *
 * `changeStamp()` lets caches notice data changes cheaply: stores call `noteWrite()` after they change data, and
 * SQLite's `data_version` moves when another process (another server instance, the user:add command) commits.
 */
export class AppDatabase {
  readonly db: BetterSqlite3.Database;
  private localWrites = 0;
  private readonly dataVersion: BetterSqlite3.Statement<[], number>;
  /** `data_version` as read during the current event-loop turn; null once the turn is over. */
  private turnDataVersion: number | null = null;
  private lastTurnStamp = { version: -1, writes: -1, stamp: '' };
  private readonly forgetTurnDataVersion = (): void => {
    this.turnDataVersion = null;
  };

  private constructor(
    db: BetterSqlite3.Database,
    /** The schema's steps opening the file applied (none when it was up to date), for the start's log. */
    readonly appliedSteps: readonly number[],
  ) {
    this.db = db;
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /**
   * Opens (creating folders and file when missing) and migrates the database at `file`. It holds password hashes
   * and sessions, so only the server's own user may read it: a folder this creates is 0700, and the database file
   * is 0600 (SQLite gives its -wal and -shm files the database file's mode).
   */
  static open(file: string): AppDatabase {
    // SQLite's name for a database in memory (a test's, a throwaway run's): no file to make, or to keep to its owner.
    const inMemory = file === IN_MEMORY;
    const resolved = path.resolve(file);
    const existed = !inMemory && fs.existsSync(resolved);
    if (!inMemory && !existed) {
      fs.mkdirSync(path.dirname(resolved), { recursive: true, mode: 0o700 });
      restrictToOwner(resolved);
    }
    const db = new Database(file);
    try {
      // Several processes may share the file (instances, the CLI): wait for a writer instead of failing at once.
      db.pragma('busy_timeout = 5000');
      // Another application's file, or no database at all, is refused before anything is written to it (its mode,
      // its journal).
      assertOwnSqliteDatabase(db);
      if (existed) restrictToOwner(resolved);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      // Before any statement: indexes on text sort keys call it.
      registerSqliteSortFold(db);
      return new AppDatabase(db, migrate(db, MIGRATIONS));
    } catch (error) {
      db.close();
      if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') {
        throw new Error(
          `The file ${resolved} is not a SQLite database (${(error as Error).message}): point DATABASE_PATH at ` +
            "this server's database, or at a new path to start afresh. Nothing was written to it.",
        );
      }
      throw error;
    }
  }

  /** Call after committing a change that cached views (dashboards, navigation) may depend on. */
  noteWrite(): void {
    this.localWrites++;
  }

  /** Changes whenever data committed by this process (through noteWrite) or by another process changed. */
  changeStamp(): string {
    return `${this.dataVersion.get()}.${this.localWrites}`;
  }

  /**
   * `changeStamp()` for caches consulted several times per request (user, memberships, dashboards): this process's
   * writes show at once, another process's commit from the next turn of the event loop on. SQLite is read once per
   * turn rather than on every call, and the same string comes back while nothing changed.
   */
  turnChangeStamp(): string {
    let version = this.turnDataVersion;
    if (version === null) {
      version = this.dataVersion.get() ?? 0;
      this.turnDataVersion = version;
      setImmediate(this.forgetTurnDataVersion);
    }
    const last = this.lastTurnStamp;
    if (last.version === version && last.writes === this.localWrites) return last.stamp;
    const stamp = `${version}.${this.localWrites}`;
    this.lastTurnStamp = { version, writes: this.localWrites, stamp };
    return stamp;
  }

  /** Throws when the database does not answer. */
  check(): void {
    this.db.prepare('SELECT 1').get();
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * Creates the database file 0600 when missing, and takes group and world access away from it and from the -wal and
 * -shm files an older start may have left readable.
 */
const IN_MEMORY = ':memory:';

function restrictToOwner(file: string): void {
  const handle = fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR, 0o600);
  fs.closeSync(handle);
  for (const name of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((fs.statSync(name).mode & 0o077) !== 0) fs.chmodSync(name, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
