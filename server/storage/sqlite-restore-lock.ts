import fs from 'node:fs';
import Database from 'better-sqlite3';
import { sqliteLockedElsewhere } from './sqlite-locked-elsewhere';

/**
 * The database, held so no server uses it while a restore replaces it: SQLite's exclusive locking mode, which a
 * connection in WAL mode (every server's) makes impossible as long as it is open, idle or not: a running server's
 * connection holds a shared lock on the file, and this one, asking for an exclusive lock without waiting, is told the
 * file is busy. A `-wal` file alone says nothing (a server killed with `kill -9` leaves one, and no server runs).
 * Held, a server started meanwhile waits for the file, or fails its start.
 */
export interface RestoreLock {
  /**
   * What is wrong, when the file is no database or a damaged one: then no lock is held (none can be), and its `-wal`
   * and `-shm` files are its own still, to be kept with it. A process found holding the file's or its `-shm`'s locks
   * (a server that opened it before it was damaged: sqlite-locked-elsewhere.ts, on Linux) is refused as on a whole one.
   */
  damaged?: string;
  /**
   * Folds the file's write-ahead log into it and leaves it in rollback-journal mode, still held: kept before the
   * restore, the file is whole on its own, and no `-wal` of it is left beside the restored file (the next start
   * would replay it onto the backup).
   */
  foldLog(): void;
  /** Lets go of the file (SQLite removes the rollback journal it kept beside it); again, does nothing. */
  release(): void;
}

/**
 * Takes the lock, changing nothing in the file (SQLite recovers the `-wal` a killed server left, as any start would).
 * @returns null when a process has the database open (a server): the restore must not replace it. A damaged file
 *   (often why one restores) is no refusal: it is kept aside as it is, unless a process holds it (SQLite cannot say
 *   so of a file whose first read fails, so Linux's list of locks is read: elsewhere a server running on a damaged
 *   file is not found).
 */
export function lockForRestore(database: string): RestoreLock | null {
  const damaged = (what: string): RestoreLock | null =>
    sqliteLockedElsewhere(database) === true
      ? null
      : { damaged: what, foldLog: () => undefined, release: () => undefined };
  // Not opened by SQLite at all: closing it, SQLite removed the -wal beside a file that is no database. An empty file
  // (which SQLite would take for a new database) is said to be empty: there is no header to miss.
  if (fs.statSync(database).size === 0) return damaged('it is empty (0 bytes)');
  if (!hasSqliteHeader(database)) return damaged('it does not begin with the SQLite header');
  let db: Database.Database | undefined;
  try {
    db = new Database(database, { fileMustExist: true });
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    // The first read takes the lock, kept until the connection closes (exclusive in WAL mode, shared otherwise).
    db.prepare('SELECT count(*) FROM sqlite_master').pluck().get();
  } catch (error) {
    db?.close();
    const { code, message } = error as { code?: unknown; message?: string };
    if (code === 'SQLITE_BUSY') return null;
    if (code === 'SQLITE_NOTADB' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'))) {
      return damaged(`SQLite: ${String(message)}`);
    }
    throw error;
  }
  const held = db;
  return {
    foldLog: () => {
      held.pragma('journal_mode = DELETE');
      // A write transaction takes the exclusive lock, kept by the exclusive locking mode until the connection closes.
      held.exec('BEGIN EXCLUSIVE; COMMIT');
    },
    release: () => {
      if (held.open) held.close();
    },
  };
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

function hasSqliteHeader(file: string): boolean {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const handle = fs.openSync(file, 'r');
  try {
    return fs.readSync(handle, header, 0, header.length, 0) === header.length && header.equals(SQLITE_HEADER);
  } finally {
    fs.closeSync(handle);
  }
}
