/**
 * `npm run db:copy -- --to <postgres-url> [--from <sqlite-file>]`: moves an installation from its embedded SQLite file
 * to PostgreSQL, when it outgrows one host. Copies everything (accounts, tenants, records and the recently deleted,
 * releases, rollouts, team tokens, audits, placements, flags, slot-load statistics, live sessions) into a new
 * PostgreSQL database in one transaction, then builds its word index. `--from` defaults to DATABASE_PATH (else
 * ./data/app.db), `--to` to DATABASE_URL; TLS and timeouts as the server reads them (docs/operators/scaling.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databasePathFromEnv } from '../env-config';
import { SESSION_SECRET_FILE } from '../config/session-secret';
import { postgresSettingsFromEnv } from '../config/postgres-settings';
import { StoredRecordSource } from '../resources/stored-record-source';
import { assertUnusedTarget, copySqliteToPostgres, COPIED_TABLES } from '../storage/copy-to-postgres';
import { sqliteFileName } from '../storage/database-name';
import { describeStorage } from '../storage/open-storage';
import { PostgresEngine } from '../storage/postgres-engine';
import { backupSqlite } from '../storage/sqlite-backup';
import { SchemaTooNewError } from '../storage/migrate';
import { SqliteEngine } from '../storage/sqlite-engine';
import { refuseArguments } from './file-argument';
import { runCommand } from './run-command';
import { commandLine } from '../process/operator-commands';
import { hidePassword } from '../storage/hidden-password';

export const DB_COPY_USAGE = `usage: ${commandLine('db:copy', '--to <postgres://...> [--from <sqlite file>]')}`;

/** A copy's statements are bigger than a request's: the server's statement timeout, but at least this. */
const COPY_STATEMENT_TIMEOUT_MS = 120_000;

/** The options, or what is wrong with them (said before the usage: it was the usage alone). */
function parseArgs(args: readonly string[]): { from?: string; to?: string } | { problem: string } {
  const parsed: { from?: string; to?: string } = {};
  for (let index = 0; index < args.length; index += 2) {
    const [flag = '', value] = [args[index], args[index + 1]];
    if (flag !== '--from' && flag !== '--to') {
      return {
        problem: flag.startsWith('-')
          ? `Unknown option ${flag}.`
          : `Unexpected "${flag}": give the SQLite file with --from, the PostgreSQL address with --to.`,
      };
    }
    if (value === undefined || value.startsWith('--')) {
      return { problem: `${flag} needs ${flag === '--to' ? 'a PostgreSQL address' : 'a SQLite file'}.` };
    }
    const key = flag === '--from' ? 'from' : 'to';
    // Given twice, which one was meant is not this command's to guess (the last would win silently).
    if (parsed[key] !== undefined) return { problem: `${flag} is given twice.` };
    parsed[key] = value;
  }
  return parsed;
}

async function main(args: readonly string[]): Promise<number> {
  const parsed = parseArgs(args);
  if ('problem' in parsed) return refuseArguments(parsed.problem, DB_COPY_USAGE);
  let to: ReturnType<typeof postgresSettingsFromEnv>;
  try {
    to = postgresSettingsFromEnv({ ...process.env, DATABASE_URL: parsed.to ?? process.env.DATABASE_URL });
  } catch (error) {
    // The setting's own message names DATABASE_URL; given with --to, the address came from there.
    if (parsed.to === undefined) throw error;
    process.stderr.write(
      `--to must be a PostgreSQL address (postgres:// or postgresql://), got "${hidePassword(parsed.to, 'an address that is no URL')}".\n`,
    );
    return 2;
  }
  if (!to) {
    return refuseArguments('db:copy needs the PostgreSQL database to copy into: --to or DATABASE_URL.', DB_COPY_USAGE);
  }
  const from = databasePathFromEnv({ DATABASE_PATH: parsed.from ?? process.env.DATABASE_PATH });
  // Opening a missing file would create an empty database and copy nothing, as if it had worked.
  if (!fs.existsSync(from)) {
    process.stderr.write(`There is no SQLite database at ${from} (--from, else DATABASE_PATH). Nothing was copied.\n`);
    return 1;
  }
  if (fs.statSync(from).isDirectory()) {
    process.stderr.write(
      `${from} is a folder, not a SQLite database file (--from, else DATABASE_PATH). Nothing was copied.\n`,
    );
    return 1;
  }
  // SQLite keeps a write-ahead log beside a file while it is open: a server still running on it (or one killed).
  if (fs.existsSync(`${from}-wal`)) {
    process.stderr.write(
      `Warning: ${from}-wal is there: a server may still run on ${sqliteFileName(from)} (or one stopped without ` +
        'closing it). What it writes after this copy starts is not in the copy: stop every server on the file, then ' +
        'copy into a new database.\n',
    );
  }
  const settings = { ...to, statementTimeoutMs: Math.max(to.statementTimeoutMs, COPY_STATEMENT_TIMEOUT_MS) };
  const where = describeStorage({ kind: 'postgres', ...settings });
  // The copy reads a snapshot, migrated to this release's schema as a server start would migrate it; the file itself
  // is left exactly as it was, so that it stays a way back to the release that wrote it (opened directly, it was
  // migrated, even by a copy that then failed, and the older release refused to start on it).
  const snapshotDir = fs.mkdtempSync(path.join(os.tmpdir(), 'slots-db-copy-'));
  try {
    const snapshot = await backupSqlite(from, path.join(snapshotDir, 'source.db'));
    return await copySnapshot(from, openSnapshot(snapshot.file, from), settings, where);
  } finally {
    fs.rmSync(snapshotDir, { recursive: true, force: true });
  }
}

/** The snapshot, migrated; a refusal names the file the operator gave, not the snapshot in the temporary folder. */
function openSnapshot(snapshot: string, from: string): SqliteEngine {
  try {
    return SqliteEngine.open(snapshot);
  } catch (error) {
    if (error instanceof SchemaTooNewError) throw error.naming(sqliteFileName(from));
    throw error;
  }
}

async function copySnapshot(
  from: string,
  source: SqliteEngine,
  settings: ConstructorParameters<typeof PostgresEngine>[0],
  where: string,
): Promise<number> {
  // The target is created from nothing, with this release's schema: one anything uses is refused before it is touched.
  const target = new PostgresEngine(settings, () => undefined);
  try {
    await assertUnusedTarget(target);
    await target.migrate();
    const report = await copySqliteToPostgres(source, target);
    const counts = COPIED_TABLES.map((table) => `${table} ${report.rows[table]}`).join(', ');
    process.stdout.write(`Copied ${sqliteFileName(from)} into ${where}:\n  ${counts}\n`);
    process.stdout.write(
      `  sessions ${report.sessions} (still signed in when ${sameSecret(from)}, and no REDIS_URL)\n`,
    );
    const indexed = await new StoredRecordSource(target).indexWords();
    process.stdout.write(`Indexed the words of ${indexed} records for search.\n`);
    process.stdout.write(
      `Start the hosts with DATABASE_URL set to it; ${sqliteFileName(from)} keeps its data, unchanged.\n`,
    );
    return 0;
  } finally {
    await target.close();
    await source.close();
  }
}

runCommand(
  'db:copy',
  () => main(process.argv.slice(2)),
  `Copies the SQLite database into a new PostgreSQL database, all or nothing.\n${DB_COPY_USAGE}`,
  ['--to', '--from'],
  ['--to', '--from'],
);

/**
 * What keeps the copied sessions signed in: the cookies' secret, which a SQLite installation without SESSION_SECRET
 * keeps in a file beside its database, where hosts on PostgreSQL do not look (they require SESSION_SECRET).
 */
function sameSecret(from: string): string {
  const file = path.join(path.dirname(from), SESSION_SECRET_FILE);
  if (process.env.SESSION_SECRET?.trim() || !fs.existsSync(file)) return 'the hosts keep the same SESSION_SECRET';
  return `the hosts are started with SESSION_SECRET set to this installation's secret, the content of ${file}`;
}
