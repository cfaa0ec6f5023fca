import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { backupDestinationRefusal } from './backup-destination';
import { onInterruption } from './on-interruption';

export interface SqliteBackup {
  /** The backup's absolute path. */
  file: string;
  bytes: number;
  /** The newest migration the backup holds: a server of that release or later starts on it. */
  schemaVersion: number;
  accounts: number;
  records: number;
}

/**
 * A backup not made (no source, a destination that exists or is not safe to write at, a source that is no database of
 * this server's): nothing was written.
 */
export class BackupRefused extends Error {}

/**
 * Every page in one step: SQLite's online backup starts over whenever another connection commits to the source
 * between two steps, so copied a hundred pages a step (better-sqlite3's default), a file of some hundred MiB under a
 * server committing a few times a second (sessions, slot events, records) was never done. One step reads one
 * snapshot under a read transaction, which in WAL mode holds no writer back.
 */
const ALL_PAGES = 0x7fffffff;

/**
 * A consistent copy of the server's SQLite file, made while servers keep running on it: SQLite's online backup
 * through a read-only connection of its own (the source is neither migrated nor written), every page in one step
 * (ALL_PAGES), so a server committing meanwhile neither waits for it nor makes it start over. The copy is written next
 * to `destination` under a temporary name, readable by this user only from its first byte (it holds password hashes
 * and sessions), checked by SQLite (`quick_check`), and only then given the name `destination` (putInPlace): a failed
 * or interrupted backup never leaves a file that looks like one. The source is left as it was: a SQLite reader of a
 * file in WAL mode makes its `-wal` and `-shm` files beside it, which a server that runs on it has already; without
 * them (no server on it) the file is read from a copy of its own, removed however the backup ends.
 *
 * `besideDatabase`: the names of files beside the database that something else reads at the next start, with what
 * (`{ 'session-secret': 'the server reads as its cookie secret' }`): refused as the destination, as SQLite's own are.
 */
export async function backupSqlite(
  source: string,
  destination: string,
  { besideDatabase = {} }: { besideDatabase?: Readonly<Record<string, string>> } = {},
): Promise<SqliteBackup> {
  const from = path.resolve(source);
  const to = path.resolve(destination);
  const refusal = backupDestinationRefusal(from, to, besideDatabase);
  if (refusal !== null) throw new BackupRefused(refusal);
  if (!fs.existsSync(from)) throw new BackupRefused(`There is no SQLite database at ${from}.`);
  if (fs.statSync(from).isDirectory()) {
    throw new BackupRefused(`${from} is a folder, not a SQLite database file: set DATABASE_PATH to the database file.`);
  }
  if (fs.existsSync(to)) throw existsAlready(to);
  if (!fs.existsSync(path.dirname(to))) throw new BackupRefused(`The folder ${path.dirname(to)} does not exist.`);
  // A name no one can guess and make first: in a folder others may write to with the sticky bit (/tmp), a file of
  // another user's under it would stop the backup.
  const partial = `${to}.partial-${randomBytes(6).toString('hex')}`;
  let made = false;
  let aside: string | null = null;
  const removeCopies = (): void => {
    // Only a file this backup made: one found under the name (made first by another) is not its to remove.
    if (made) {
      fs.rmSync(partial, { force: true });
      fs.rmSync(`${partial}-journal`, { force: true });
    }
    // A private folder (mkdtemp's mode is 0700), removed however the backup ends: it holds password hashes.
    if (aside !== null) fs.rmSync(aside, { recursive: true, force: true });
  };
  // Watched before the first file is made: a Ctrl-C between the two left the partial copy behind (a signal is
  // handled between statements, never between the file's making and `made`).
  const stopWatching = onInterruption(removeCopies);
  try {
    // An empty file is an empty database to SQLite; created here with its mode, the copy is never readable by others.
    try {
      fs.writeFileSync(partial, '', { mode: 0o600, flag: 'wx' });
      made = true;
    } catch (error) {
      throw unwritable(error, path.dirname(to), path.dirname(from));
    }
    // Left beside the file, they would say a server runs on it (db:copy warns of that) where none does.
    if (!fs.existsSync(`${from}-wal`)) aside = fs.mkdtempSync(path.join(os.tmpdir(), 'slots-backup-'));
    const read = aside === null ? from : path.join(aside, path.basename(from));
    if (aside !== null) fs.copyFileSync(from, read);
    const db = new Database(read, { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      await db.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      db.close();
    }
    const backup = describeBackup(partial, from);
    putInPlace(partial, to);
    return { ...backup, file: to };
  } catch (error) {
    throw unreadable(error, from);
  } finally {
    stopWatching();
    removeCopies();
  }
}

/**
 * Gives the finished copy its name, never taking the name from a file made there while the backup ran (the check
 * before it began was seconds ago): a hard link fails where a rename would replace. The temporary name is removed
 * after, with the other copies. A file system without hard links (some network shares) gets the check and a rename.
 */
function putInPlace(partial: string, to: string): void {
  try {
    fs.linkSync(partial, to);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw existsAlready(to);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
  }
  if (fs.existsSync(to)) throw existsAlready(to);
  fs.renameSync(partial, to);
}

function existsAlready(to: string): BackupRefused {
  return new BackupRefused(`${to} exists already: a backup never overwrites a file.`);
}

/**
 * Makes the copy one self-contained file (the source's WAL mode would give it -wal and -shm files beside it, which
 * a copy or a move of the backup leaves behind; the server turns WAL on again when it opens it), asks SQLite whether
 * it is whole and the server's own, and says what it holds, for the operator's message.
 */
function describeBackup(file: string, from: string): Omit<SqliteBackup, 'file'> {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupRefused(damaged(from, String(check)));
    const tables = db
      .prepare<
        [],
        string
      >("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")
      .pluck()
      .all();
    if (!tables.includes('schema_version')) throw new BackupRefused(notThisServers(from, tables));
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
 * A source without the server's tables. No table at all is what a plain copy of the server's file gives while a
 * server runs on it: in WAL mode its recent writes, at first all of them, are in the -wal file beside it, not in it.
 */
function notThisServers(from: string, tables: readonly string[]): string {
  if (tables.length === 0) {
    return (
      `${from} holds no tables: it is no database of this server. A copy of the server's file taken with cp while ` +
      'the server ran, without the -wal file beside it, looks so (the data was in that -wal file): back up the ' +
      "server's own file with db:backup instead."
    );
  }
  const named = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ` and ${tables.length - 5} more` : '');
  return `${from} holds tables this server does not make (${named}) and none of its own: it belongs to something else.`;
}

function damaged(from: string, detail: string): string {
  return (
    `${from} is damaged (SQLite: ${detail}): no backup was made of it. Keep it as it is, with the -wal file beside ` +
    'it if there is one, and restore the last good backup (docs/operators/README.md#day-to-day).'
  );
}

/**
 * SQLite's and Node's words for a source that cannot be read or is no database, said with the file they are about
 * (`file is not a database` alone names none, and a copy into the temporary folder named that folder's copy).
 */
function unreadable(error: unknown, from: string): unknown {
  if (error instanceof BackupRefused) return error;
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'SQLITE_NOTADB') return new BackupRefused(`${from} is not a SQLite database (SQLite: ${message}).`);
  if (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')) return new BackupRefused(damaged(from, message));
  if (code === 'EACCES' || code === 'EPERM' || (typeof code === 'string' && code.startsWith('SQLITE_CANTOPEN'))) {
    const user = typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
    return new BackupRefused(
      `${from} cannot be read by this user${user}: run the backup as the user the server runs as.`,
    );
  }
  if (code === 'ENOSPC' || code === 'SQLITE_FULL') {
    return new BackupRefused(
      `A disk is full: the backup's folder, or ${os.tmpdir()} where a file no server has open is first copied ` +
        '(set TMPDIR to a folder with room).',
    );
  }
  return error;
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
