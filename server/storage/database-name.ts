import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { Client } from 'pg';

/**
 * Databases as messages and logs name them, the one way every message does (a refusal at start, a background
 * reader's warning): the engine, then the SQLite file or PostgreSQL's database, host and port, never the password.
 * An operator reads them in a supervisor's log, where which file or server was meant is not otherwise said. (The
 * refusals said `The database /data/app.db` where the logs said `SQLite /data/app.db`, and
 * `The database PostgreSQL "slots" on …`.)
 */

/** A SQLite database: `SQLite /data/app.db`, its file's absolute path. */
export function sqliteDatabaseName(db: Pick<BetterSqlite3.Database, 'memory' | 'name'>): string {
  return db.memory ? 'SQLite (in memory)' : sqliteFileName(db.name);
}

/** A SQLite database file, opened or not: `SQLite /data/app.db`. */
export function sqliteFileName(file: string): string {
  return `SQLite ${path.resolve(file)}`;
}

/**
 * A PostgreSQL database as a client reads its settings (the URL, then PGHOST and the others):
 * `PostgreSQL "slots" on db:5432`, the engine named as SQLite's is: `SQLite /data/app.db`.
 */
export function postgresDatabaseName(client: Pick<Client, 'database' | 'host' | 'port'>): string {
  return `PostgreSQL "${client.database ?? ''}" on ${client.host}:${client.port}`;
}
