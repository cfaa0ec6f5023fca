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
 * Brings the schema up to the last migration. Each step runs in an IMMEDIATE transaction that re-reads the version,
 * so two processes starting on the same file at once apply every step exactly once.
 * @returns the versions applied by this call
 */
export function migrate(db: BetterSqlite3.Database, migrations: readonly Migration[]): number[] {
  assertOrdered(migrations);
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
