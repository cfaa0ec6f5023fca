import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { Client } from 'pg';

/**
 * Databases as messages and logs name them, the one way every message does (a refusal at start, a background
 * reader's warning): the SQLite file, or PostgreSQL's database, host and port, never the password. An operator reads
 * them in a supervisor's log, where which file or server was meant is not otherwise said.
 */

/** A SQLite database: its file's absolute path. */
export function sqliteDatabaseName(db: Pick<BetterSqlite3.Database, 'memory' | 'name'>): string {
  return db.memory ? '(in memory)' : path.resolve(db.name);
}

/**
 * A PostgreSQL database as a client reads its settings (the URL, then PGHOST and the others):
 * `PostgreSQL "slots" on db:5432`, the engine named as in the other messages' `SQLite /data/app.db`.
 */
export function postgresDatabaseName(client: Pick<Client, 'database' | 'host' | 'port'>): string {
  return `PostgreSQL "${client.database ?? ''}" on ${client.host}:${client.port}`;
}
