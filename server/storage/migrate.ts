import type BetterSqlite3 from 'better-sqlite3';
import { sqliteDatabaseName } from './database-name';
import type { Migration } from './migrations';

/**
 * A database migrated by a newer release, refused before anything is written. The message names the database as
 * database-name.ts does (`SQLite /data/app.db`, `PostgreSQL "slots" on db:5432`, never the password): an operator
 * going back after an upgrade reads it in a supervisor's log, where which file or server was meant is not otherwise
 * said.
 */
export class SchemaTooNewError extends Error {
  constructor(
    readonly database: string,
    readonly found: number,
    readonly known: number,
    readonly elsewhere = 'point DATABASE_PATH at another file',
  ) {
    super(
      `${database} is at schema version ${found}, newer than this server knows (${known}). ` +
        'Nothing was written to it. ' +
        `Run a newer server, restore the backup taken before the upgrade to go back, or ${elsewhere}.`,
    );
    this.name = 'SchemaTooNewError';
  }

  /** The same refusal naming `database` instead: a copy's snapshot stands for the file the operator named. */
  naming(database: string): SchemaTooNewError {
    return new SchemaTooNewError(database, this.found, this.known, this.elsewhere);
  }
}

/**
 * A database whose `schema_version` names, for a version this server knows, another step than this server's: made
 * by a release whose steps are numbered otherwise (a side branch's step 4 became step 5 on main). Refused before
 * anything is written, where running the steps from `MAX(version)` on would have stopped halfway on a table of the
 * same name ("table deleted_records already exists") or, worse, skipped a step the database never had.
 */
export class SchemaStepMismatchError extends Error {
  constructor(database: string, version: number, recorded: string, ours: string | undefined) {
    super(
      `${database} records schema step ${version} as "${recorded}", but this server's step ${version} ` +
        `is ${ours === undefined ? 'none' : `"${ours}"`}: the database was made by a release whose schema steps are ` +
        "not this server's. Nothing was written to it. Run the server release that made this database, or restore " +
        'a backup made before it.',
    );
    this.name = 'SchemaStepMismatchError';
  }
}

/** A step as a database records it in `schema_version`. */
export interface RecordedStep {
  version: number;
  name: string;
}

/**
 * The first recorded step, among the versions this server knows, whose name is neither this server's name of that
 * step nor one of its former names (a name edited on main after databases recorded it). Versions above the last
 * known are for SchemaTooNewError. Names compare exactly.
 */
export function firstForeignStep(
  recorded: readonly RecordedStep[],
  migrations: readonly Migration[],
): { version: number; recorded: string; ours: string | undefined } | undefined {
  const known = migrations.at(-1)?.version ?? 0;
  const byVersion = new Map(migrations.map((migration) => [migration.version, migration]));
  for (const step of [...recorded].sort((a, b) => a.version - b.version)) {
    if (step.version > known) break;
    const ours = byVersion.get(step.version);
    if (ours && (step.name === ours.name || ours.formerNames?.includes(step.name))) continue;
    return { version: step.version, recorded: step.name, ours: ours?.name };
  }
  return undefined;
}

/**
 * A database that holds tables but none of this server's (no `schema_version`): another application's, named by
 * mistake. Refused before anything is written, where taking it would have mixed this server's tables, demo data and a
 * new `admin` account into it, or stopped halfway on a table of the same name.
 */
export class ForeignDatabaseError extends Error {
  constructor(database: string, tables: readonly string[], elsewhere: string) {
    const named = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ` and ${tables.length - 5} more` : '');
    super(
      `${database} holds tables this server does not make (${named}) and none of its own: it belongs ` +
        `to something else. Nothing was written to it. ${elsewhere}; the server creates its tables there.`,
    );
    this.name = 'ForeignDatabaseError';
  }
}

/** Refuses, reading only, a SQLite database that holds tables but none of this server's (ForeignDatabaseError). */
export function assertOwnSqliteDatabase(db: BetterSqlite3.Database): void {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")
    .pluck()
    .all() as string[];
  if (tables.length > 0 && !tables.includes('schema_version')) {
    throw new ForeignDatabaseError(
      sqliteDatabaseName(db),
      tables,
      'Point DATABASE_PATH at a file of its own (a new path)',
    );
  }
}

/**
 * Refuses, reading only, a database `migrate` would refuse: another application's (ForeignDatabaseError), one whose
 * recorded steps are not these (SchemaStepMismatchError), one newer than them (SchemaTooNewError). Run before the
 * server sets WAL mode, which rewrites the header of a file in another mode (a backup is one): a refused file is
 * left byte for byte as it was.
 */
export function assertMigratable(db: BetterSqlite3.Database, migrations: readonly Migration[]): void {
  assertOrdered(migrations);
  assertOwnSqliteDatabase(db);
  const known = migrations.at(-1)?.version ?? 0;
  const hasTable = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
    .pluck()
    .get();
  if (!hasTable) return;
  const recorded = db.prepare('SELECT version, name FROM schema_version ORDER BY version').all() as RecordedStep[];
  const foreign = firstForeignStep(recorded, migrations);
  if (foreign) {
    throw new SchemaStepMismatchError(sqliteDatabaseName(db), foreign.version, foreign.recorded, foreign.ours);
  }
  const found = recorded.at(-1)?.version ?? 0;
  if (found > known) throw new SchemaTooNewError(sqliteDatabaseName(db), found, known);
}

/**
 * Brings the schema up to the last migration: every step whose version the database has not recorded. Each step runs
 * in an IMMEDIATE transaction that re-reads the recorded versions, so two processes starting on the same file at once
 * apply every step exactly once. A database whose recorded steps are not this server's (SchemaStepMismatchError) or
 * newer than it (SchemaTooNewError) is refused before anything is written.
 * @returns the versions applied by this call
 */
export function migrate(db: BetterSqlite3.Database, migrations: readonly Migration[]): number[] {
  assertMigratable(db, migrations);
  db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const isRecorded = db.prepare('SELECT 1 FROM schema_version WHERE version = ?').pluck();
  const record = db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)');

  const applied: number[] = [];
  for (const migration of migrations) {
    const step = db.transaction(() => {
      // By version, not below MAX(version): main once recorded step 16 before step 15 existed (3ce81f8), and a
      // database made then still needs 15.
      if (isRecorded.get(migration.version) !== undefined) return;
      db.exec(migration.sql);
      migration.sqliteWork?.(db);
      record.run(migration.version, migration.name, Date.now());
      applied.push(migration.version);
    });
    step.immediate();
  }
  return applied;
}

export function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    const previous = index === 0 ? 0 : (migrations[index - 1]?.version ?? 0);
    if (!Number.isInteger(migration.version) || migration.version <= previous) {
      throw new Error(`Migration "${migration.name}" has version ${migration.version}; versions must increase from 1.`);
    }
  });
}
