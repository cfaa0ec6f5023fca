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

/** Where the settings point, for messages (a PostgreSQL URL without its password). */
export function describeStorage(settings: StorageSettings): string {
  if (settings.kind === 'sqlite') return settings.path;
  const url = new URL(settings.url);
  url.password = '';
  return url.toString();
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
