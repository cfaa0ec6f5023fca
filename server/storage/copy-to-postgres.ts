import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { AppSchema } from './app-schema';
import type { PostgresEngine } from './postgres-engine';
import type { SqliteEngine } from './sqlite-engine';

/**
 * The tables copied row for row, in an order that satisfies their references (accounts and tenants before
 * memberships, tenants before records). Both engines hold them with the same columns (migrations.ts).
 */
export const COPIED_TABLES = Object.freeze([
  'users',
  'tenants',
  'memberships',
  'user_permissions',
  'records',
  'deleted_records',
  'deleted_record_deleters',
  'remote_releases',
  'remote_rollouts',
  'remote_rollout_plans',
  'remote_tokens',
  'remote_audit',
  'remote_config_reloads',
  'slot_load_stats',
  'slot_load_anonymous_stats',
  'slot_load_visitors',
  'feature_flags',
  'placement_revisions',
  'placement_draft',
  'placement_audit',
] as const satisfies readonly (keyof AppSchema)[]);

export type CopiedTable = (typeof COPIED_TABLES)[number];

/** The SQLite tables not copied row for row, and why (a migration adding a table must add it to one list or the other). */
export const TABLES_NOT_COPIED: Readonly<Record<string, string>> = Object.freeze({
  sessions: 'copied in PostgreSQL’s session layout (connect-pg-simple), the expired ones left behind',
  record_words: 'SQLite’s full-text index: PostgreSQL’s is built from the records after the copy',
  record_words_config: 'part of SQLite’s full-text index',
  record_words_content: 'part of SQLite’s full-text index',
  record_words_data: 'part of SQLite’s full-text index',
  record_words_docsize: 'part of SQLite’s full-text index',
  record_words_idx: 'part of SQLite’s full-text index',
  record_words_state: 'says which words each engine’s own index holds',
  login_rate_limits: 'passing counters of failed sign-ins',
  record_creations:
    'a day of keys of creates sent with an Idempotency-Key: a create sent again across the copy is made again',
  schema_version: 'each engine migrates its own schema',
  tenants_flags_version: 'a counter of changes: PostgreSQL’s own moves as the tenants and flags are copied',
  sqlite_sequence: 'SQLite’s id counters: PostgreSQL’s identity sequences are set from them',
});

/** Rows per INSERT: far below PostgreSQL's 65,535 parameters for the widest table (slot_load_stats, 23 columns). */
const ROWS_PER_INSERT = 500;

export interface CopyReport {
  /** Rows copied per table, in COPIED_TABLES order. */
  rows: Record<CopiedTable, number>;
  /** Sessions not yet expired, copied so that signed-in staff stay signed in (with the same SESSION_SECRET). */
  sessions: number;
}

/** The target was not empty, or another refusal that leaves both databases as they were. */
export class CopyRefused extends Error {}

/**
 * Copies the data of a SQLite database into a PostgreSQL database that no host has used yet (migrated, every table
 * empty), in one PostgreSQL transaction: the target gets all of it or, on any failure, nothing. The source is read
 * in one SQLite read transaction, so a server still writing to it is seen as of the copy's start (what it writes
 * later is not carried over: stop it first).
 *
 * Ids are kept (records, accounts, releases keep their numbers, links and audits stay true), and each identity
 * sequence continues after the highest id the source ever handed out (SQLite's AUTOINCREMENT counter), so an id of a
 * deleted or purged record is never given again. Tenants keep their creation order (the order of the tenant switcher).
 */
export async function copySqliteToPostgres(
  source: SqliteEngine,
  target: PostgresEngine,
  now: number = Date.now(),
): Promise<CopyReport> {
  const file = source.file.db;
  file.exec('BEGIN');
  try {
    return await target.exclusive(async (trx) => {
      await assertEmpty(trx);
      const rows = {} as Record<CopiedTable, number>;
      for (const table of COPIED_TABLES) {
        rows[table] = await copyTable(file, trx, table);
        await continueIdentity(file, trx, table);
      }
      return { rows, sessions: await copySessions(file, trx, now) };
    });
  } finally {
    file.exec('COMMIT');
  }
}

/**
 * The tables a PostgreSQL database of this server may hold (every release's: a database another release migrated may
 * be copied into while its tables are empty); any other table belongs to something else.
 */
const OWN_TABLES: ReadonlySet<string> = new Set([...COPIED_TABLES, ...Object.keys(TABLES_NOT_COPIED), 'data_version']);

/**
 * Refuses a target that anything uses, before anything is written to it (the migration to this release's schema
 * included): a table of another application (its database, named by mistake), or a table of this server's holding
 * rows (a database hosts run on: migrated by a newer release's copy, older hosts would refuse to start on it). A
 * database that a failed copy left migrated and empty is used by nothing, and taken.
 */
export async function assertUnusedTarget(target: PostgresEngine): Promise<void> {
  const present = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() ORDER BY table_name`.execute(target.db);
  const tables = present.rows.map((row) => row.name);
  const foreign = tables.filter((table) => !OWN_TABLES.has(table));
  if (foreign.length > 0) {
    throw new CopyRefused(
      `the PostgreSQL database holds tables this server does not make (${foreign.join(', ')}): it belongs to ` +
        'something else. Copy into a new database (CREATE DATABASE ...). Nothing was copied.',
    );
  }
  await assertEmpty(target.db, new Set(tables));
}

async function assertEmpty(trx: Kysely<AppSchema>, present?: ReadonlySet<string>): Promise<void> {
  const filled: string[] = [];
  for (const table of [...COPIED_TABLES, 'sessions']) {
    if (present !== undefined && !present.has(table)) continue;
    const result = await sql<{ count: number }>`SELECT count(*)::int AS count FROM ${sql.table(table)}`.execute(trx);
    const count = result.rows[0]?.count ?? 0;
    if (count > 0) filled.push(`${table} ${count}`);
  }
  if (filled.length > 0) {
    throw new CopyRefused(
      `the PostgreSQL database already holds data (${filled.join(', ')}): copy into a new database that no host ` +
        'has started on (CREATE DATABASE ...). Nothing was copied.',
    );
  }
}

function columnsOf(file: BetterSqlite3.Database, table: string): string[] {
  return file
    .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
    .all()
    .map((column) => column.name);
}

/** The table's rows in rowid order (creation order: the tenants' is their switcher's), a batch at a time. */
async function copyTable(file: BetterSqlite3.Database, trx: Kysely<AppSchema>, table: CopiedTable): Promise<number> {
  const columns = columnsOf(file, table);
  const select = file.prepare<[number], Record<string, unknown>>(
    `SELECT rowid AS copy_rowid, ${columns.map((column) => `"${column}"`).join(', ')} FROM "${table}"
     WHERE rowid > ? ORDER BY rowid LIMIT ${ROWS_PER_INSERT}`,
  );
  let copied = 0;
  for (let after = 0; ; ) {
    const batch = select.all(after);
    if (batch.length === 0) break;
    const values = batch.map((row) => sql`(${sql.join(columns.map((column) => row[column]))})`);
    try {
      await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))})
        VALUES ${sql.join(values)}`.execute(trx);
    } catch (error) {
      throw new Error(`copying ${table} failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    copied += batch.length;
    after = Number(batch.at(-1)!.copy_rowid);
  }
  const target = await sql<{ count: number }>`SELECT count(*)::int AS count FROM ${sql.table(table)}`.execute(trx);
  if (target.rows[0]?.count !== copied) {
    throw new Error(`copying ${table}: ${copied} rows read, ${target.rows[0]?.count ?? 0} found in PostgreSQL`);
  }
  return copied;
}

/**
 * A table with an identity `id` continues after the highest id SQLite handed out: its AUTOINCREMENT counter, which
 * remembers ids of rows since deleted (a record moved to deleted_records keeps its id, to be restored with it).
 */
async function continueIdentity(file: BetterSqlite3.Database, trx: Kysely<AppSchema>, table: string): Promise<void> {
  if (!columnsOf(file, table).includes('id')) return;
  const sequence = await sql<{ name: string | null }>`SELECT pg_get_serial_sequence(${table}, 'id') AS name`.execute(
    trx,
  );
  const name = sequence.rows[0]?.name;
  if (!name) return;
  const counter = file.prepare<[string], number>('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(table);
  const highest = Math.max(
    Number(counter ?? 0),
    Number(file.prepare(`SELECT coalesce(max(id), 0) FROM "${table}"`).pluck().get()),
  );
  // setval(..., false) for an empty table: the next id is 1, as on a new database.
  await sql`SELECT setval(${name}, ${Math.max(highest, 1)}, ${highest > 0})`.execute(trx);
}

/** The sessions still alive, in connect-pg-simple's layout (`sess` JSON, `expire` a timestamp). */
async function copySessions(file: BetterSqlite3.Database, trx: Kysely<AppSchema>, now: number): Promise<number> {
  const sessions = file
    .prepare<
      [number],
      { sid: string; sess: string; expires_at: number }
    >('SELECT sid, sess, expires_at FROM sessions WHERE expires_at > ? ORDER BY expires_at')
    .all(now);
  for (let start = 0; start < sessions.length; start += ROWS_PER_INSERT) {
    const values = sessions
      .slice(start, start + ROWS_PER_INSERT)
      .map(({ sid, sess, expires_at }) => sql`(${sid}, ${sess}::json, to_timestamp(${expires_at / 1000}))`);
    await sql`INSERT INTO sessions (sid, sess, expire) VALUES ${sql.join(values)}`.execute(trx);
  }
  return sessions.length;
}
