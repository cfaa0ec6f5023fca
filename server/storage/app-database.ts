import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import { assertMigratable, migrate } from './migrate';
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
    // Read before SQLite opens the file, which makes a -wal file beside a file in WAL mode.
    const walWithout = existed && inWalModeWithoutItsLog(resolved);
    let db: BetterSqlite3.Database;
    try {
      if (!inMemory && !existed) {
        fs.mkdirSync(path.dirname(resolved), { recursive: true, mode: 0o700 });
        restrictToOwner(resolved);
      }
      db = new Database(file);
    } catch (error) {
      throw existed ? notOpenable(error, resolved) : error;
    }
    try {
      // Several processes may share the file (instances, the CLI): wait for a writer instead of failing at once.
      db.pragma('busy_timeout = 5000');
      // Another application's file, no database at all, or one this release cannot run on (newer, other steps) is
      // refused before anything is written to it (its mode, its journal mode in the header).
      assertMigratable(db, MIGRATIONS);
      if (walWithout) assertNotCopiedWithoutLog(db, resolved);
      if (existed) restrictToOwner(resolved);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      // Before any statement: indexes on text sort keys call it.
      registerSqliteSortFold(db);
      return new AppDatabase(db, migrate(db, MIGRATIONS));
    } catch (error) {
      db.close();
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_NOTADB') {
        throw new Error(
          `The file ${resolved} is not a SQLite database (${(error as Error).message}): point DATABASE_PATH at ` +
            "this server's database, or at a new path to start afresh. Nothing was written to it.",
        );
      }
      // SQLite refuses to write to a file no longer at its path: a db:restore renamed the backup over it after this
      // start opened it, while the restore held it (a server would otherwise run on the kept file, sqlite-restore.ts).
      if (code === 'SQLITE_READONLY_DBMOVED') {
        throw new Error(
          `SQLite ${resolved} was replaced while this start opened it (db:restore put a backup in its place): ` +
            'nothing was written to it. Start again, which opens the file there now.',
        );
      }
      if (existed && typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')) {
        throw new Error(
          `SQLite ${resolved} is damaged (SQLite: ${(error as Error).message}). Keep it as it is, with the -wal ` +
            'file beside it if there is one, and restore the last backup (docs/operators/README.md#backup-and-restore).',
        );
      }
      throw existed ? notOpenable(error, resolved) : error;
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

/**
 * Whether the file's header says WAL mode (bytes 18 and 19 of a SQLite header are 2) while no -wal file is beside
 * it. A server's file in WAL mode holds, until a checkpoint, none of its recent writes (at first, none of its tables):
 * they are in the -wal file, which a clean stop folds in and removes. So such a file with no tables is a copy taken
 * while a server ran, without its -wal file.
 */
function inWalModeWithoutItsLog(file: string): boolean {
  if (fs.existsSync(`${file}-wal`)) return false;
  const header = Buffer.alloc(20);
  let handle: number;
  try {
    handle = fs.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const read = fs.readSync(handle, header, 0, header.length, 0);
    return (
      read === header.length && header.subarray(0, 16).equals(SQLITE_MAGIC) && header[18] === 2 && header[19] === 2
    );
  } finally {
    fs.closeSync(handle);
  }
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Refuses, before anything is written, a file in WAL mode with no -wal file beside it and no table: started on it,
 * the server made a new, empty installation (a new `admin` password on the demo) where an operator restoring a copy
 * taken with `cp` while the server ran expected their data, which was in the -wal file not copied.
 */
function assertNotCopiedWithoutLog(db: BetterSqlite3.Database, file: string): void {
  const tables = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get();
  if (Number(tables) > 0) return;
  throw new Error(
    `SQLite ${file} holds no tables, yet says it is in WAL mode and has no -wal file beside it: it looks like ` +
      "a copy of a server's file taken while the server ran (with cp), without the -wal file that held its data. " +
      'Nothing was written to it. Restore a backup made by db:backup instead (docs/operators/README.md#backup-and-restore), ' +
      'or delete the file to start a new installation there.',
  );
}

/**
 * SQLite's and Node's words for a database file this user may not open (`unable to open database file`, `EACCES …
 * open`, read by the start as the folder's fault, or `attempt to write a readonly database` for a folder it may not
 * write the -wal file in) say neither whose it is nor what to do. A backup
 * restored by another user (root) is the usual cause: the file keeps its owner and mode 0600.
 */
function notOpenable(error: unknown, file: string): unknown {
  const code = (error as { code?: unknown }).code;
  const denied =
    code === 'EACCES' ||
    code === 'EPERM' ||
    (typeof code === 'string' && (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY')));
  if (!denied || typeof process.getuid !== 'function') return error;
  const uid = process.getuid();
  const user = `this user (uid ${uid})`;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return error;
  }
  const folder = path.dirname(file);
  if (!mayReadAndWrite(file)) {
    const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
    return new Error(
      `SQLite ${file} cannot be read and written by ${user}: it belongs to uid ${stat.uid} with mode ${mode}. ` +
        "A restored or copied file keeps the owner of whoever copied it: give it to the server's user " +
        `(chown ${uid} ${file}), or run as the user it belongs to. Nothing was written to it.`,
    );
  }
  if (!mayReadAndWrite(folder)) {
    return new Error(
      `The folder ${folder} is not writable by ${user}: SQLite makes the database's -wal and -shm files there. ` +
        "Give the folder to the server's user (chown), or run as its owner. Nothing was written to the database.",
    );
  }
  return error;
}

function mayReadAndWrite(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
