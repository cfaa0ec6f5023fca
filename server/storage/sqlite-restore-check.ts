import fs from 'node:fs';
import Database from 'better-sqlite3';
import { firstForeignStep, type RecordedStep } from './migrate';
import { MIGRATIONS, RELEASE_SCHEMA_VERSION } from './migrations';

/** A restore not made (a file that is no whole backup of this server's, a server running, an unsafe place). */
export class RestoreRefused extends Error {}

/** What a backup holds, for the operator's message. */
export interface RestorableBackup {
  /** The newest step it records: below RELEASE_SCHEMA_VERSION, the next start migrates it. */
  schemaVersion: number;
  accounts: number;
  records: number;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Refuses, reading the first bytes only, a `backup` that is not a SQLite file at all (a tarball, a dump, an empty
 * file) or that has a `-wal` beside it, whose writes a copy of the file alone leaves out.
 */
export function assertLooksLikeBackup(backup: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(backup);
  } catch {
    throw new RestoreRefused(`There is no file at ${backup}.`);
  }
  if (!stat.isFile()) throw new RestoreRefused(`${backup} is not a file: name the backup file db:backup wrote.`);
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const handle = fs.openSync(backup, 'r');
  let read: number;
  try {
    read = fs.readSync(handle, header, 0, header.length, 0);
  } finally {
    fs.closeSync(handle);
  }
  if (read < header.length || !header.equals(SQLITE_HEADER)) {
    const what = stat.size === 0 ? 'is empty' : 'does not begin with the SQLite header';
    throw new RestoreRefused(
      `${backup} ${what}: it is no SQLite database, so no backup of this server's (db:backup writes one).`,
    );
  }
  const wal = `${backup}-wal`;
  if (fs.existsSync(wal) && fs.statSync(wal).size > 0) {
    throw new RestoreRefused(
      `${wal} is beside ${backup}: part of its data may be in that file, which a restore of the file alone leaves ` +
        'out. If a server runs on it, back it up with db:backup and restore that backup.',
    );
  }
}

/**
 * Checks a copy of the backup (never the operator's file, which stays as it was) as SQLite and this release see it,
 * and makes it one self-contained file in rollback-journal mode (a copy of a server's file in WAL mode would get
 * `-wal` and `-shm` files; the server turns WAL on again at its start): whole (`integrity_check`, every page and
 * index), this server's (its `schema_version`, with this release's steps), and not newer than this release.
 * `backup` is the name the operator gave, said in the messages.
 */
export function checkRestorable(copy: string, backup: string): RestorableBackup {
  let db: Database.Database;
  try {
    db = new Database(copy, { fileMustExist: true });
  } catch (error) {
    throw unreadable(error, backup);
  }
  try {
    const tables = db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")
      .pluck()
      .all();
    if (tables.length === 0 && inWalMode(copy)) {
      throw new RestoreRefused(
        `${backup} holds no tables and says it is in WAL mode: it looks like a copy of a server's file taken with ` +
          'cp while the server ran, without the -wal file that held its data. Restore a backup made by db:backup.',
      );
    }
    db.pragma('journal_mode = DELETE');
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') {
      throw new RestoreRefused(
        `${backup} is damaged (SQLite's integrity check: ${String(check)}): it cannot be restored. Restore an ` +
          'earlier backup.',
      );
    }
    if (!tables.includes('schema_version')) throw new RestoreRefused(notThisServers(backup, tables));
    const recorded = db.prepare('SELECT version, name FROM schema_version ORDER BY version').all() as RecordedStep[];
    const foreign = firstForeignStep(recorded, MIGRATIONS);
    if (foreign) {
      throw new RestoreRefused(
        `${backup} records schema step ${foreign.version} as "${foreign.recorded}", but this release's step ` +
          `${foreign.version} is ${foreign.ours === undefined ? 'none' : `"${foreign.ours}"`}: it was made by a ` +
          "release whose schema steps are not this one's. Restore it with the release that made it.",
      );
    }
    const schemaVersion = recorded.at(-1)?.version ?? 0;
    if (schemaVersion > RELEASE_SCHEMA_VERSION) {
      throw new RestoreRefused(
        `${backup} is at schema version ${schemaVersion}, newer than this release knows (${RELEASE_SCHEMA_VERSION}): ` +
          'a newer release made it, and this one cannot run on it. Restore it with that release (or a later one), ' +
          'or restore a backup taken before the upgrade.',
      );
    }
    const count = (table: string): number =>
      tables.includes(table) ? Number(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()) : 0;
    return { schemaVersion, accounts: count('users'), records: count('records') };
  } catch (error) {
    throw unreadable(error, backup);
  } finally {
    db.close();
  }
}

/** Bytes 18 and 19 of a SQLite header are 2 in WAL mode. */
function inWalMode(file: string): boolean {
  const header = Buffer.alloc(20);
  const handle = fs.openSync(file, 'r');
  try {
    return fs.readSync(handle, header, 0, 20, 0) === 20 && header[18] === 2 && header[19] === 2;
  } finally {
    fs.closeSync(handle);
  }
}

function notThisServers(backup: string, tables: readonly string[]): string {
  if (tables.length === 0) return `${backup} holds no tables: it is an empty database, no backup of this server's.`;
  const named = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ` and ${tables.length - 5} more` : '');
  return `${backup} holds tables this server does not make (${named}) and none of its own: it belongs to something else.`;
}

/** SQLite's words for a file that is no database or a damaged one, said with the operator's file. */
function unreadable(error: unknown, backup: string): unknown {
  if (error instanceof RestoreRefused) return error;
  const { code, message } = error as { code?: unknown; message?: string };
  if (code === 'SQLITE_NOTADB') return new RestoreRefused(`${backup} is not a SQLite database (SQLite: ${message}).`);
  if (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')) {
    return new RestoreRefused(
      `${backup} is damaged (SQLite: ${message}): it cannot be restored. Restore an earlier backup.`,
    );
  }
  return error;
}
