import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from './migrations';

export class SchemaTooNewError extends Error {
  constructor(found: number, known: number, elsewhere = 'point DATABASE_PATH at another file') {
    super(
      `The database schema is at version ${found}, newer than this server knows (${known}). ` +
        `Run a newer server, or ${elsewhere}.`,
    );
    this.name = 'SchemaTooNewError';
  }
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
      `The database ${database} holds tables this server does not make (${named}) and none of its own: it belongs ` +
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
    throw new ForeignDatabaseError(db.name, tables, 'Point DATABASE_PATH at a file of its own (a new path)');
  }
}

/**
 * Brings the schema up to the last migration. Each step runs in an IMMEDIATE transaction that re-reads the version,
 * so two processes starting on the same file at once apply every step exactly once.
 * @returns the versions applied by this call
 */
export function migrate(db: BetterSqlite3.Database, migrations: readonly Migration[]): number[] {
  assertOrdered(migrations);
  assertOwnSqliteDatabase(db);
  db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const currentVersion = db.prepare('SELECT COALESCE(MAX(version), 0) FROM schema_version').pluck();
  const record = db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)');
  const known = migrations.at(-1)?.version ?? 0;
  const found = currentVersion.get() as number;
  if (found > known) throw new SchemaTooNewError(found, known);

  const applied: number[] = [];
  for (const migration of migrations) {
    const step = db.transaction(() => {
      if ((currentVersion.get() as number) >= migration.version) return;
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
