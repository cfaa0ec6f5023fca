/**
 * The refusal of a database at an older schema tells the operator how to back it up before the upgrade, in the way
 * its engine is backed up: `npm run db:backup` copies a SQLite file and refuses PostgreSQL ("backed up with pg_dump"),
 * so on PostgreSQL the refusal names pg_dump.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { makeTempDir } from '../../testing/temp-dir';
import { describeWithPostgres, usePostgresDatabases, withPostgresClient } from '../../testing/server/postgres-server';
import { migrate } from './migrate';
import { MIGRATIONS, POSTGRES_MIGRATIONS, RELEASE_SCHEMA_VERSION } from './migrations';
import { migratePostgres } from './postgres-migrate';
import { assertSchemaNotBehind, SchemaBehindError } from './schema-behind-check';

jest.setTimeout(60_000);

const OLDER = RELEASE_SCHEMA_VERSION - 2;

async function refusal(check: Promise<void>): Promise<SchemaBehindError> {
  const error = await check.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SchemaBehindError);
  return error as SchemaBehindError;
}

describe('a SQLite file at an older schema', () => {
  it('is refused with npm run db:backup as the backup to take', async () => {
    const dir = makeTempDir('slots-schema-behind-');
    try {
      const file = path.join(dir.path, 'app.db');
      const db = new Database(file);
      migrate(
        db,
        MIGRATIONS.filter((step) => step.version <= OLDER),
      );
      db.close();
      const error = await refusal(assertSchemaNotBehind({ kind: 'sqlite', path: file }, file));
      expect(error.message).toContain(`is at schema version ${OLDER}, older than this release's`);
      expect(error.message).toContain('back it up (npm run db:backup)');
    } finally {
      dir.remove();
    }
  });
});

describeWithPostgres()('a PostgreSQL database at an older schema', () => {
  const postgres = usePostgresDatabases('schema_behind', { poolSize: 2, statementTimeoutMs: 5000 });

  it('is refused with pg_dump as the backup to take, not db:backup, which refuses PostgreSQL', async () => {
    const storage = await postgres.create();
    await withPostgresClient(storage.url, async (client) => {
      await migratePostgres(
        client,
        POSTGRES_MIGRATIONS.filter((step) => step.version <= OLDER),
      );
    });
    const error = await refusal(assertSchemaNotBehind(storage, storage.url));
    expect(error.message).toContain(`is at schema version ${OLDER}, older than this release's`);
    expect(error.message).toContain('back it up (pg_dump -Fc');
    expect(error.message).not.toContain('db:backup');
  });
});
