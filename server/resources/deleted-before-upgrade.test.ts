/**
 * Records deleted by a release before `deleted_records.deleted_by` existed (migration 18), upgraded: they keep no
 * account (NULL, so a DELETE of them answers the 404 it answered before), and restore as they did. An account
 * removed since leaves its deletions without one too. Both engines, from a database made by the older migrations
 * with the rows written as that release wrote them.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { describeWithPostgres, usePostgresDatabases, withPostgresClient } from '../../testing/server/postgres-server';
import { makeTempDir } from '../../testing/temp-dir';
import { migrate } from '../storage/migrate';
import { MIGRATIONS, POSTGRES_MIGRATIONS } from '../storage/migrations';
import { openMigratedStorage } from '../storage/open-storage';
import { migratePostgres } from '../storage/postgres-migrate';
import { registerSqliteSortFold } from '../storage/sort-fold';
import { SqliteEngine } from '../storage/sqlite-engine';
import type { StorageEngine } from '../storage/storage-engine';
import { StoredRecordSource } from './stored-record-source';

jest.setTimeout(30_000);

const BEFORE_COLUMN = (step: { version: number }) => step.version < 18;
/** A minute ago: well within the restore window whenever the test runs. */
const DELETED_AT = Date.now() - 60_000;
const OLD_ROWS = `
  INSERT INTO tenants (id, name) VALUES ('acme', 'ACME');
  INSERT INTO users (id, username, display_name, password_hash, created_at, updated_at)
    VALUES (7, 'dan', 'Dan', 'hash-of-dan', 0, 0);
  INSERT INTO deleted_records (id, tenant_id, resource, data, created_at, updated_at, deleted_at)
    VALUES (41, 'acme', 'articles', '{"title":"Deleted before","label":"old"}', 1, 2, ${DELETED_AT});
`;

async function expectDeletersKeptOrLetGo(engine: StorageEngine): Promise<void> {
  const records = new StoredRecordSource(engine);
  expect(await records.getDeleted('acme', 'articles', 41)).toMatchObject({ deletedAt: DELETED_AT, deletedBy: null });
  const restored = { id: 41, title: 'Deleted before', label: 'old' };
  expect(await records.restore('acme', 'articles', 41)).toEqual(restored);
  expect(await records.get('acme', 'articles', 41)).toEqual(restored);

  // Deleted again by dan, who is then removed: the deletion stays, restorable, by no account.
  await records.delete('acme', 'articles', 41, { deletedBy: 7 });
  expect(await records.getDeleted('acme', 'articles', 41)).toMatchObject({ deletedBy: 7 });
  await engine.db.deleteFrom('users').where('id', '=', 7).execute();
  expect(await records.getDeleted('acme', 'articles', 41)).toMatchObject({ deletedBy: null });
  expect(await records.restore('acme', 'articles', 41)).toEqual(restored);
}

describe('records deleted before the upgrade, on SQLite', () => {
  it('were deleted by no account, and restore', async () => {
    const dir = makeTempDir('slots-deleted-before-');
    try {
      const file = path.join(dir.path, 'app.db');
      const older = new Database(file);
      registerSqliteSortFold(older);
      migrate(older, MIGRATIONS.filter(BEFORE_COLUMN));
      older.exec(OLD_ROWS);
      older.close();
      const engine = SqliteEngine.open(file);
      try {
        await expectDeletersKeptOrLetGo(engine);
      } finally {
        await engine.close();
      }
    } finally {
      dir.remove();
    }
  });
});

describeWithPostgres()('records deleted before the upgrade, on PostgreSQL', () => {
  const postgres = usePostgresDatabases('deleted_before', { poolSize: 2, statementTimeoutMs: 2000 });

  it('were deleted by no account, and restore', async () => {
    const storage = await postgres.create();
    await withPostgresClient(storage.url, async (client) => {
      await migratePostgres(client, POSTGRES_MIGRATIONS.filter(BEFORE_COLUMN));
      await client.query(OLD_ROWS);
    });
    const engine = await openMigratedStorage(storage);
    try {
      await expectDeletersKeptOrLetGo(engine);
    } finally {
      await engine.close();
    }
  });
});
