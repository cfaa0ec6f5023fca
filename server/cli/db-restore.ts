/**
 * `npm run db:restore -- <backup file> [--yes]`: puts a backup made by db:backup in place of the SQLite database at
 * DATABASE_PATH (else ./data/app.db), the server stopped, keeping the database as it was beside it. On a terminal it
 * asks first. On PostgreSQL (DATABASE_URL set) a restore is pg_restore's (docs/operators/scaling.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SESSION_SECRET_FILE } from '../config/session-secret';
import { databasePathFromEnv } from '../env-config';
import { RELEASE_SCHEMA_VERSION } from '../storage/migrations';
import { sqliteFileName } from '../storage/database-name';
import { keptDatabaseName, restoreSqlite, RestoreRefused, type SqliteRestore } from '../storage/sqlite-restore';
import { assertLooksLikeBackup } from '../storage/sqlite-restore-check';
import { confirmRemoval } from './confirm-removal';
import { fileArgument, refuseArguments } from './file-argument';
import { runCommand } from './run-command';
import { commandLine } from '../process/operator-commands';

export const DB_RESTORE_USAGE = `usage: ${commandLine('db:restore', '<backup file> [--yes]')}`;

async function main(args: readonly string[]): Promise<number> {
  const words = fileArgument(args, {
    flags: ['--yes'],
    missing: 'Name the backup file to restore.',
    what: 'backup file',
  });
  if ('problem' in words) return refuseArguments(words.problem, DB_RESTORE_USAGE);
  const backup = words.file;
  if (process.env.DATABASE_URL?.trim()) {
    process.stderr.write(
      'DATABASE_URL is set: the data is in PostgreSQL, restored with pg_restore (docs/operators/scaling.md).\n',
    );
    return 2;
  }
  const database = databasePathFromEnv(process.env);
  try {
    const besideDatabase = { [SESSION_SECRET_FILE]: 'the server reads as its cookie secret' };
    // One time for the question and the restore: the kept file's name, made from it, is the one the question gave.
    const now = new Date();
    const answer = await confirmReplacing(backup, database, words.flags.has('--yes'), now);
    if (!answer.restore) {
      process.stderr.write('Not restored: the answer was not yes. Nothing was changed.\n');
      return 1;
    }
    const restored = await restoreSqlite(backup, database, { besideDatabase, now });
    process.stdout.write(restoredMessage(path.resolve(backup), restored, answer.keptAs));
    return 0;
  } catch (error) {
    if (!(error instanceof RestoreRefused)) throw error;
    process.stderr.write(`${error.message} Nothing was changed.\n`);
    return 1;
  }
}

runCommand(
  'db:restore',
  () => main(process.argv.slice(2)),
  'Puts a backup made by db:backup in place of the SQLite database, the server stopped; the database as it was is ' +
    `kept beside it. On a terminal it asks first (--yes: it does not).\n${DB_RESTORE_USAGE}`,
  [],
  ['--yes'],
);

/** Whether to restore, and the name the question gave the kept database (null where none was asked). */
type Answer = { restore: false } | { restore: true; keptAs: string | null };

/**
 * On a terminal, a restore over a database says what it replaces and the name it keeps it under, and asks: the
 * database's newer data is then out of the server's reach, found again only by an operator who knows of the kept
 * file. The name is the one the restore makes from the same `now` (a placeholder for its time sent the operator to
 * list the folder afterwards). `--yes`, or no terminal (a script, a container's one-off run:
 * docs/operators/deploy.md), restores without asking, as before the question was asked. Nothing to replace (a new
 * machine), or a file that is no backup at all (refused at once, not after a yes), is not asked about.
 */
async function confirmReplacing(backup: string, database: string, yes: boolean, now: Date): Promise<Answer> {
  if (yes || !process.stdin.isTTY) return { restore: true, keptAs: null };
  if (!fs.statSync(database, { throwIfNoEntry: false })?.isFile()) return { restore: true, keptAs: null };
  const from = path.resolve(backup);
  assertLooksLikeBackup(from);
  // The database itself named as the backup: restoreSqlite refuses it, asking nothing.
  const target = fs.realpathSync(database);
  if (fs.realpathSync(from) === target) return { restore: true, keptAs: null };
  const keptAs = keptDatabaseName(target, now);
  process.stderr.write(
    `This replaces ${sqliteFileName(target)} with the backup ${from}. The database as it is now is kept beside it, ` +
      `as ${keptAs}.\n`,
  );
  const confirmed = (await confirmRemoval('Restore the backup?', false)) === 'confirmed';
  return confirmed ? { restore: true, keptAs } : { restore: false };
}

function restoredMessage(backup: string, restored: SqliteRestore, keptAs: string | null): string {
  const lines = [
    `Restored ${backup} to ${sqliteFileName(restored.database)} (schema ${restored.schemaVersion}, ` +
      `${counted(restored.accounts, 'account')}, ${counted(restored.records, 'record')}).`,
  ];
  if (restored.kept !== null) {
    const damaged = restored.damaged === undefined ? '' : ` (damaged: ${restored.damaged}; kept as it was)`;
    // A file made under the name the question gave, while it waited: the restore never writes over a file, so the
    // database went to the next free name (keptDatabaseName's rule), said here.
    const renamed =
      keptAs === null || keptAs === restored.kept ? '' : ` (${keptAs}, the name asked about, was taken meanwhile)`;
    lines.push(
      `The database as it was${damaged} is kept in ${restored.kept}${renamed}; delete it once the restore is checked.`,
    );
  }
  if (restored.schemaVersion < RELEASE_SCHEMA_VERSION) {
    lines.push(
      `The backup is at schema ${restored.schemaVersion}, older than this release's (${RELEASE_SCHEMA_VERSION}): the ` +
        'next start migrates it. Until then, the other commands of this release refuse it.',
    );
  }
  lines.push(`Start the server and check its log. ${keepSecret(restored.database)}`);
  return `${lines.join('\n')}\n`;
}

/** The sessions in the backup verify only with the secret that signed their cookies (db-backup.ts says so too). */
function keepSecret(database: string): string {
  if (process.env.SESSION_SECRET?.trim()) {
    return 'Start it with the SESSION_SECRET it had when the backup was made, or every session ends.';
  }
  const file = path.join(path.dirname(database), SESSION_SECRET_FILE);
  return `Sessions go on only with the ${file} of the installation the backup was made on; without it, each ends.`;
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
