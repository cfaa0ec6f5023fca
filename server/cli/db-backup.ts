/**
 * `npm run db:backup -- <file>`: a consistent backup of the SQLite database at DATABASE_PATH (else ./data/app.db),
 * made while the server runs. On PostgreSQL (DATABASE_URL set) backups are pg_dump's (docs/operators/scaling.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SESSION_SECRET_FILE } from '../config/session-secret';
import { databasePathFromEnv } from '../env-config';
import { backupSqlite, BackupRefused } from '../storage/sqlite-backup';
import { runCommand } from './run-command';
import { commandLine } from '../process/operator-commands';

export const DB_BACKUP_USAGE = `usage: ${commandLine('db:backup', '<new file>')}`;

async function main(args: readonly string[]): Promise<number> {
  const [destination, ...extra] = args;
  if (!destination || destination.startsWith('--') || extra.length > 0) {
    process.stderr.write(`${DB_BACKUP_USAGE}\n`);
    return 2;
  }
  if (process.env.DATABASE_URL?.trim()) {
    process.stderr.write(
      'DATABASE_URL is set: the data is in PostgreSQL, backed up with pg_dump (docs/operators/scaling.md).\n',
    );
    return 2;
  }
  const source = databasePathFromEnv(process.env);
  const refusal = destinationRefusal(source, destination);
  if (refusal !== null) {
    process.stderr.write(`${refusal} Nothing was written.\n`);
    return 1;
  }
  try {
    const backup = await backupSqlite(source, destination);
    const kib = Math.ceil(backup.bytes / 1024);
    process.stdout.write(
      `Backed up ${source} to ${backup.file} (${kib} KiB, schema ${backup.schemaVersion}, ` +
        `${counted(backup.accounts, 'account')}, ${counted(backup.records, 'record')}), readable by this user only.\n` +
        'To restore: stop the server, move the file at DATABASE_PATH aside with its -wal and -shm files, put this ' +
        "file there owned by the server's user, start (docs/operators/README.md#backup-and-restore).\n" +
        `${keepSecret(source)}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof BackupRefused)) throw error;
    process.stderr.write(`${error.message} Nothing was written.\n`);
    return 1;
  }
}

runCommand(
  'db:backup',
  () => main(process.argv.slice(2)),
  `Makes a consistent backup of the SQLite database while the server runs.\n${DB_BACKUP_USAGE}`,
);

/**
 * Why the backup may not be written at `destination`, before anything is (null when it may): the copy is written
 * under a temporary name beside it, opened again by name and then renamed, so
 * - in a folder another user may change (writable by others, or by another group, without the sticky bit; the folder
 *   or one above it), that user could put a file of theirs under the temporary name or move the folder, and SQLite
 *   would write every password hash and session into it: read at once, and the backup said to be private;
 * - a symbolic link there, even to nothing, would be replaced (the rename does not follow it): a backup never
 *   overwrites anything;
 * - beside the database, the names of its own companions are not backups: SQLite takes a `-wal`, `-journal` or `-shm`
 *   it finds beside the file at the next start as its own (a backup named `app.db-wal` was gone after it), and the
 *   server reads `session-secret` as its cookie secret.
 */
function destinationRefusal(source: string, destination: string): string | null {
  const to = path.resolve(destination);
  if (lstatOrNull(to)?.isSymbolicLink()) {
    return `${to} is a symbolic link (to ${fs.readlinkSync(to)}): a backup never replaces one. Name a new file.`;
  }
  let folder: string;
  try {
    folder = fs.realpathSync(path.dirname(to));
  } catch {
    return null; // No such folder: backupSqlite says so.
  }
  const databaseFolder = realpathOrSelf(path.dirname(path.resolve(source)));
  const companions = ['-wal', '-journal', '-shm'].map((suffix) => `${path.basename(source)}${suffix}`);
  const name = path.basename(to);
  if (folder === databaseFolder && (companions.includes(name) || name === SESSION_SECRET_FILE)) {
    const what = name === SESSION_SECRET_FILE ? 'the server reads as its cookie secret' : 'SQLite takes as its own';
    return (
      `${to} is a file beside the database that ${what} at the next start: a backup there would be lost. ` +
      `Name it otherwise, e.g. ${path.join(folder, 'backup.db')}.`
    );
  }
  for (let dir = folder; ; dir = path.dirname(dir)) {
    const { mode, gid } = fs.statSync(dir);
    const sticky = (mode & 0o1000) !== 0; // S_ISVTX: only a file's owner may rename or delete it
    const byOthers = (mode & 0o002) !== 0 || ((mode & 0o020) !== 0 && gid !== process.getgid?.());
    if (byOthers && !sticky) {
      const octal = (mode & 0o7777).toString(8).padStart(4, '0');
      return (
        `The folder ${dir} (mode ${octal}, group ${gid}) may be changed by other users, who could take the backup ` +
        '(password hashes and sessions) as it is written. Write it to a folder only this user (and root) may change, ' +
        `e.g. beside the database: ${path.join(databaseFolder, 'backup.db')}.`
      );
    }
    if (dir === path.dirname(dir)) return null;
  }
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

function realpathOrSelf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * The session cookies are signed with SESSION_SECRET or, without it, the secret the server generated into a file
 * beside the database: the backup does not hold it, and a restore on a new machine without it signs every staff
 * member out (their sessions are in the backup, but no cookie verifies any more).
 */
function keepSecret(source: string): string {
  if (process.env.SESSION_SECRET?.trim()) {
    return 'Start the restored server with the same SESSION_SECRET, or every session ends.';
  }
  const file = path.join(path.dirname(path.resolve(source)), SESSION_SECRET_FILE);
  return (
    `Keep ${file} with the backup and put it back beside the restored file: it signs the session cookies, and ` +
    'without it every session ends.'
  );
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
