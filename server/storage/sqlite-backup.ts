import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface SqliteBackup {
  /** The backup's absolute path. */
  file: string;
  bytes: number;
  /** The newest migration the backup holds: a server of that release or later starts on it. */
  schemaVersion: number;
  accounts: number;
  records: number;
}

/** A backup not made (no source, a destination that exists): nothing was written. */
export class BackupRefused extends Error {}

/**
 * A consistent copy of the server's SQLite file, made while servers keep running on it: SQLite's online backup
 * through a read-only connection of its own (the source is neither migrated nor written), starting over on its own
 * when a server commits meanwhile. The copy is written next to `destination` under a temporary name, readable by
 * this user only from its first byte (it holds password hashes and sessions), checked by SQLite (`quick_check`), and
 * only then renamed to `destination`: a failed or interrupted backup never leaves a file that looks like one. The
 * source is left as it was: a SQLite reader of a file in WAL mode makes its `-wal` and `-shm` files beside it, which
 * a server that runs on it has already; without them (no server on it) the file is read from a copy of its own.
 */
export async function backupSqlite(source: string, destination: string): Promise<SqliteBackup> {
  const from = path.resolve(source);
  const to = path.resolve(destination);
  if (!fs.existsSync(from)) throw new BackupRefused(`There is no SQLite database at ${from}.`);
  if (fs.existsSync(to)) throw new BackupRefused(`${to} exists already: a backup never overwrites a file.`);
  if (!fs.existsSync(path.dirname(to))) throw new BackupRefused(`The folder ${path.dirname(to)} does not exist.`);
  const partial = `${to}.partial-${process.pid}`;
  // An empty file is an empty database to SQLite; created here with its mode, the copy is never readable by others.
  try {
    fs.writeFileSync(partial, '', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    throw unwritable(error, path.dirname(to), path.dirname(from));
  }
  // Left beside the file, they would say a server runs on it (db:copy warns of that) where none does.
  const aside = fs.existsSync(`${from}-wal`) ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'slots-backup-'));
  try {
    const read = aside === null ? from : path.join(aside, path.basename(from));
    if (aside !== null) fs.copyFileSync(from, read);
    const db = new Database(read, { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      await db.backup(partial);
    } finally {
      db.close();
      // A private folder (mkdtemp's mode is 0700): the copy holds password hashes and sessions.
      if (aside !== null) fs.rmSync(aside, { recursive: true, force: true });
    }
    const backup = describeBackup(partial);
    fs.renameSync(partial, to);
    return { ...backup, file: to };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * Makes the copy one self-contained file (the source's WAL mode would give it -wal and -shm files beside it, which
 * a copy or a move of the backup leaves behind; the server turns WAL on again when it opens it), asks SQLite whether
 * it is whole, and says what it holds, for the operator's message.
 */
function describeBackup(file: string): Omit<SqliteBackup, 'file'> {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy failed SQLite's check: ${String(check)}`);
    const count = (table: string): number => Number(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get());
    return {
      bytes: fs.statSync(file).size,
      schemaVersion: Number(db.prepare('SELECT coalesce(max(version), 0) FROM schema_version').pluck().get()),
      accounts: count('users'),
      records: count('records'),
    };
  } finally {
    db.close();
  }
}

/**
 * Why the backup cannot be written where it was asked, with where it can: in the image the root file system is
 * read-only (a relative path lands in /app) and the database's folder, the volume, is the place one can write.
 */
function unwritable(error: unknown, folder: string, databaseFolder: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'EROFS' && code !== 'EACCES' && code !== 'EPERM') return error;
  const why = code === 'EROFS' ? 'is on a read-only file system' : 'is not writable by this user';
  const elsewhere =
    folder === databaseFolder ? '' : ` Write it beside the database, e.g. ${path.join(databaseFolder, 'backup.db')}.`;
  return new BackupRefused(`The folder ${folder} ${why}.${elsewhere}`);
}
