import type { Client } from 'pg';
import {
  assertOrdered,
  firstForeignStep,
  ForeignDatabaseError,
  SchemaStepMismatchError,
  SchemaTooNewError,
} from './migrate';
import { postgresDatabaseName } from './database-name';
import type { Migration } from './migrations';
import { takeAdvisoryLock, type AdvisoryLockWait } from './advisory-lock';

/** What a migration tells of its wait for the lock (AdvisoryLockWait) and of the steps it is about to apply. */
export interface MigrationWatch extends AdvisoryLockWait {
  /**
   * Told, under the lock, of the versions about to be applied (not when there are none), before the first: a start
   * listens meanwhile (server/process/start-progress.ts). No step is applied before it has resolved, none if it
   * rejects.
   */
  applying?(versions: readonly number[]): Promise<void>;
}

/** The advisory lock every instance takes to migrate (any 64-bit number no other application uses on the server). */
export const MIGRATION_LOCK_KEY = 0x5107_5d8a;

/**
 * Brings a PostgreSQL database up to the last migration. The whole run holds a session-level advisory lock, so
 * instances starting together (on one host or many) wait for each other: the first applies the steps, the others
 * find them applied. Each step whose version the database has not recorded commits on its own with its
 * `schema_version` row. A database newer than the code, or whose recorded steps are not this server's, is refused
 * before anything changes.
 *
 * `client` is a connected client of its own, without the pool's statement and query timeouts: a step may take long,
 * and so may waiting for another instance's steps. `lockWait` hears of such a wait, before and after: a start that
 * waited in silence (another host's long step, a frozen host, an operator's session holding the lock) looked hung.
 * Its `signal` stops the run at a safe point: the wait for the lock at once, the steps before the next one (each
 * commits on its own), rejecting with the abort's reason; a later start applies those left.
 * @returns the versions applied by this call
 */
export async function migratePostgres(
  client: Client,
  migrations: readonly Migration[],
  lockWait?: MigrationWatch,
): Promise<number[]> {
  assertOrdered(migrations);
  const known = migrations.at(-1)?.version ?? 0;
  await takeAdvisoryLock(client, MIGRATION_LOCK_KEY, lockWait);
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
    const database = postgresDatabaseName(client);
    if (tables.length > 0 && !tables.includes('schema_version')) {
      throw new ForeignDatabaseError(
        database,
        tables,
        'Point DATABASE_URL at a database of its own (CREATE DATABASE ...)',
      );
    }
    const recorded = new Set<number>();
    if (tables.includes('schema_version')) {
      const { rows } = await client.query<{ version: number; name: string }>(
        'SELECT version, name FROM schema_version ORDER BY version',
      );
      const steps = rows.map((row) => ({ version: Number(row.version), name: row.name }));
      const foreign = firstForeignStep(steps, migrations);
      if (foreign) throw new SchemaStepMismatchError(database, foreign.version, foreign.recorded, foreign.ours);
      const found = steps.at(-1)?.version ?? 0;
      if (found > known) throw new SchemaTooNewError(database, found, known, 'point DATABASE_URL at another database');
      for (const step of steps) recorded.add(step.version);
    }
    const pending = migrations.filter((migration) => !recorded.has(migration.version));
    if (pending.length > 0) await lockWait?.applying?.(pending.map((migration) => migration.version));
    await client.query(`CREATE TABLE IF NOT EXISTS schema_version (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`);
    const applied: number[] = [];
    // By version, not below MAX(version): main once recorded step 16 before step 15 existed (3ce81f8), and a
    // database made then still needs 15. The lock keeps other instances from recording steps meanwhile.
    for (const migration of pending) {
      lockWait?.signal?.throwIfAborted();
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
