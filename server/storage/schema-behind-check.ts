import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { RELEASE_SCHEMA_VERSION } from './migrations';
import type { StorageSettings } from './open-storage';

/**
 * How each engine's database is backed up before an upgrade: `db:backup` refuses PostgreSQL (it copies SQLite files),
 * so naming it there sent an operator to a command that answers "backed up with pg_dump".
 */
const BACKUP_COMMAND: Record<StorageSettings['kind'], string> = {
  sqlite: 'npm run db:backup',
  postgres: 'pg_dump -Fc, docs/operators/scaling.md#several-hosts',
};

/**
 * A database at an older schema than this release's, refused by the operators' commands. A command of a newer
 * checkout, run against the live database before the new server has started on it (`npm run user:list` to look
 * around), used to migrate it silently under the old server: the old server then refused to start again, and the
 * backup taken afterwards was already migrated, no longer one the old release could go back to. Starting the new
 * server is the one place an upgrade happens, after a backup (docs/operators/upgrade.md).
 */
export class SchemaBehindError extends Error {
  constructor(
    readonly found: number,
    readonly release: number,
    where: string,
    engine: StorageSettings['kind'],
  ) {
    super(
      `${where} is at schema version ${found}, older than this release's (${release}). ` +
        "The operators' commands do not upgrade a database: a server of the release that made it may still run on " +
        `it, and would not start again. Nothing was changed. To upgrade, back it up (${BACKUP_COMMAND[engine]}) and ` +
        "start this release's server on it (docs/operators/upgrade.md), then run the command again; until then, use " +
        'the commands of the release the server runs.',
    );
    this.name = 'SchemaBehindError';
  }
}

/**
 * Refuses (SchemaBehindError), reading only, a database whose recorded schema is older than this release's. A
 * database with no schema at all (a SQLite file not there yet, an empty PostgreSQL database) is a new installation:
 * no server of another release runs on it, so the command may make it. A newer or foreign one is for the migration
 * to refuse, with its own message.
 */
export async function assertSchemaNotBehind(settings: StorageSettings, where: string): Promise<void> {
  // A database this check cannot read (not a SQLite file, PostgreSQL out of reach) is left to the opening that
  // follows, whose messages say what is wrong and where (ForeignDatabaseError, "Could not connect to PostgreSQL at").
  const found = await recordedSchemaVersion(settings).catch(() => undefined);
  if (found !== undefined && found < RELEASE_SCHEMA_VERSION) {
    throw new SchemaBehindError(found, RELEASE_SCHEMA_VERSION, where, settings.kind);
  }
}

/** The last schema step the database records; undefined when it has no schema_version table (none of ours yet). */
async function recordedSchemaVersion(settings: StorageSettings): Promise<number | undefined> {
  if (settings.kind === 'sqlite') {
    if (!existsSync(settings.path)) return undefined;
    // Read-write but writing nothing: a read-only connection to a file in WAL mode would leave -wal and -shm files
    // beside it (which say a server runs on it), where this one, the last to close, removes them.
    const db = new Database(settings.path, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      const table = db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
        .pluck()
        .get();
      if (table === undefined) return undefined;
      return Number(db.prepare('SELECT coalesce(max(version), 0) FROM schema_version').pluck().get());
    } finally {
      db.close();
    }
  }
  // Loaded only here, as in open-storage.ts: a SQLite command has no use for pg.
  const { Client } = require('pg') as typeof import('pg');
  const client = new Client({
    connectionString: settings.url,
    connectionTimeoutMillis: settings.statementTimeoutMs,
    application_name: 'slots-server schema check',
  });
  // A connection error the awaited query does not report must not crash the command.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ present: boolean }>(
      "SELECT to_regclass('schema_version') IS NOT NULL AS present",
    );
    if (!rows[0]?.present) return undefined;
    const version = await client.query<{ version: number | string }>(
      'SELECT coalesce(max(version), 0) AS version FROM schema_version',
    );
    return Number(version.rows[0]?.version ?? 0);
  } finally {
    await client.end();
  }
}
