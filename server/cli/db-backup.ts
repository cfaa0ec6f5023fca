/**
 * `npm run db:backup -- <file>`: a consistent backup of the SQLite database at DATABASE_PATH (else ./data/app.db),
 * made while the server runs. On PostgreSQL (DATABASE_URL set) backups are pg_dump's (docs/operators/scaling.md).
 */
import path from 'node:path';
import { SESSION_SECRET_FILE } from '../config/session-secret';
import { databasePathFromEnv } from '../env-config';
import { sqliteFileName } from '../storage/database-name';
import { backupSqlite, BackupRefused } from '../storage/sqlite-backup';
import { fileArgument, refuseArguments } from './file-argument';
import { runCommand } from './run-command';
import { commandLine } from '../process/operator-commands';

export const DB_BACKUP_USAGE = `usage: ${commandLine('db:backup', '<new file>')}`;

async function main(args: readonly string[]): Promise<number> {
  const words = fileArgument(args, { missing: 'Name the new file to write the backup to.', what: 'new file' });
  if ('problem' in words) return refuseArguments(words.problem, DB_BACKUP_USAGE);
  const destination = words.file;
  if (process.env.DATABASE_URL?.trim()) {
    process.stderr.write(
      'DATABASE_URL is set: the data is in PostgreSQL, backed up with pg_dump (docs/operators/scaling.md).\n',
    );
    return 2;
  }
  const source = databasePathFromEnv(process.env);
  try {
    // The server's own file beside the database, which the storage module does not know of.
    const besideDatabase = { [SESSION_SECRET_FILE]: 'the server reads as its cookie secret' };
    const backup = await backupSqlite(source, destination, { besideDatabase });
    const kib = Math.ceil(backup.bytes / 1024);
    process.stdout.write(
      `Backed up ${sqliteFileName(source)} to ${backup.file} (${kib} KiB, schema ${backup.schemaVersion}, ` +
        `${counted(backup.accounts, 'account')}, ${counted(backup.records, 'record')}), readable by this user only.\n` +
        `To restore: stop the server, then ${commandLine('db:restore', backup.file)} with the same DATABASE_PATH ` +
        '(docs/operators/README.md#backup-and-restore).\n' +
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
  [],
  [],
);

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
