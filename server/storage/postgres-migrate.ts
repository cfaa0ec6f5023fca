import type { Client } from 'pg';
import { assertOrdered, ForeignDatabaseError, SchemaTooNewError } from './migrate';
import type { Migration } from './migrations';

/** The advisory lock every instance takes to migrate (any 64-bit number no other application uses on the server). */
export const MIGRATION_LOCK_KEY = 0x5107_5d8a;

/**
 * Brings a PostgreSQL database up to the last migration. The whole run holds a session-level advisory lock, so
 * instances starting together (on one host or many) wait for each other: the first applies the steps, the others
 * find them applied. Each step commits on its own with its `schema_version` row. A database newer than the code
 * is refused before anything changes.
 *
 * `client` is a connected client of its own, without the pool's statement and query timeouts: a step may take long,
 * and so may waiting for another instance's steps.
 * @returns the versions applied by this call
 */
export async function migratePostgres(client: Client, migrations: readonly Migration[]): Promise<number[]> {
  assertOrdered(migrations);
  const known = migrations.at(-1)?.version ?? 0;
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    // From the catalogue, not information_schema, which lists only the tables the account has rights on; an
    // extension's own (pg_stat_statements', PostGIS's spatial_ref_sys), installed with the database, are no one's.
    const present = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
         AND NOT EXISTS (SELECT 1 FROM pg_depend d
           WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
       ORDER BY c.relname`,
    );
    const tables = present.rows.map((row) => row.name);
    if (tables.length > 0 && !tables.includes('schema_version')) {
      throw new ForeignDatabaseError(
        `"${client.database ?? ''}" on ${client.host}:${client.port}`,
        tables,
        'Point DATABASE_URL at a database of its own (CREATE DATABASE ...)',
      );
    }
    await client.query(`CREATE TABLE IF NOT EXISTS schema_version (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`);
    const { rows } = await client.query<{ v: number }>('SELECT COALESCE(MAX(version), 0) AS v FROM schema_version');
    const found = Number(rows[0]?.v);
    if (found > known) throw new SchemaTooNewError(found, known, 'point DATABASE_URL at another database');
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= found) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          Date.now(),
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      applied.push(migration.version);
    }
    return applied;
  } finally {
    // A broken connection cannot unlock, but ending it (the caller does) releases the lock as well.
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
  }
}
