import { postgresDatabaseName, sqliteFileName } from './database-name';
import type { PostgresSettings } from './postgres-engine';
import type { ConnectionWatch } from './postgres-outage-log';
import { SqliteEngine } from './sqlite-engine';
import type { StorageEngine } from './storage-engine';

/** Where the server keeps its data: a SQLite file on this machine, or a PostgreSQL server (DATABASE_URL). */
export type StorageSettings = { kind: 'sqlite'; path: string } | ({ kind: 'postgres' } & PostgresSettings);

/**
 * Opens the engine. SQLite is opened and migrated at once (a bad file throws here); PostgreSQL connects lazily
 * and migrates in `engine.migrate()`.
 */
export function openStorage(
  settings: StorageSettings,
  onIdleError: (error: Error) => void,
  /** Told of PostgreSQL's connections, to log its outages (PostgresOutageLog); nothing by default. */
  connections?: ConnectionWatch,
): StorageEngine {
  if (settings.kind === 'sqlite') return SqliteEngine.open(settings.path);
  // Loaded only here: pg and Kysely's PostgreSQL dialect cost a SQLite server's start a third of a second for nothing.
  const { PostgresEngine } = require('./postgres-engine') as typeof import('./postgres-engine');
  return new PostgresEngine(settings, onIdleError, connections);
}

/**
 * Where the settings point, for the commands' messages, named as the server's logs and refusals name it
 * (database-name.ts): `SQLite /data/app.db`, or `PostgreSQL "slots" on db:5432` as a client reads the URL and PG*
 * variables, never the password. (The commands' own lines named a SQLite database by its bare path, where their
 * refusals and the server's logs said `SQLite /data/app.db`.)
 */
export function describeStorage(settings: StorageSettings): string {
  if (settings.kind === 'sqlite') return sqliteFileName(settings.path);
  // Loaded only here, as in openStorage: the SQLite commands need none of pg.
  const { Client } = require('pg') as typeof import('pg');
  return postgresDatabaseName(new Client({ connectionString: settings.url }));
}

/**
 * Opens and migrates as a server start does (PostgreSQL under the migration lock), for commands (user:add,
 * user:disable) and tests; nothing is left open when it rejects (e.g. a database newer than the code).
 */
export async function openMigratedStorage(
  settings: StorageSettings,
  onIdleError: (error: Error) => void = () => undefined,
): Promise<StorageEngine> {
  const engine = openStorage(settings, onIdleError);
  try {
    await engine.migrate();
  } catch (error) {
    await engine.close();
    throw error;
  }
  return engine;
}
