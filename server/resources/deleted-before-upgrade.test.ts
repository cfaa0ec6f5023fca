/**
 * Schema step 18 (who deleted each deleted record) in a rolling upgrade, both engines.
 * - Records deleted by a release before it, upgraded: they keep no account (so a DELETE of them answers the 404 it
 *   answered before), and restore as they did. An account removed since leaves its deletions without one too.
 *   From a database made by the older migrations with the rows written as that release wrote them.
 * - A host of that release still running on the migrated database: its restore (every column of the deleted row
 *   copied back into records) and its letting go of old deletions work, and take the deleter with them, so a later
 *   delete of the same record never meets it.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { describeWithPostgres, usePostgresDatabases, withPostgresClient } from '../../testing/server/postgres-server';
import { RECORD_RESTORE_WINDOW_MS } from '../../shared';
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

const BEFORE_STEP_18 = (step: { version: number }) => step.version < 18;
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
  expect(await deleters(engine)).toEqual([]);
  expect(await records.restore('acme', 'articles', 41)).toEqual(restored);
}

async function deleters(engine: StorageEngine): Promise<number[]> {
  const rows = await engine.db.selectFrom('deleted_record_deleters').select('record_id').execute();
  return rows.map((row) => row.record_id);
}

/**
 * StoredRecordSource.restore of the release before step 18 (982c249), word index aside: every column of the deleted
 * row but deleted_at, whatever they are (`SELECT *`), into records.
 */
async function restoreAsEarlierRelease(engine: StorageEngine, id: number): Promise<void> {
  await engine.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('deleted_records').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const { deleted_at: _deletedAt, ...record } = row;
    await trx.deleteFrom('deleted_records').where('id', '=', id).execute();
    await trx.insertInto('records').values(record).execute();
  });
}

/** How the release before step 18 lets deletions older than the restore window go (in each of its deletes). */
async function letGoAsEarlierRelease(engine: StorageEngine, now: number): Promise<void> {
  await engine.db
    .deleteFrom('deleted_records')
    .where('deleted_at', '<', now - RECORD_RESTORE_WINDOW_MS)
    .execute();
}

async function expectEarlierReleaseRestoresAndLetsGo(engine: StorageEngine): Promise<void> {
  await engine.db.insertInto('tenants').values({ id: 'acme', name: 'ACME' }).execute();
  const dan = await engine.db
    .insertInto('users')
    .values({ username: 'dan', display_name: 'Dan', password_hash: 'hash-of-dan', created_at: 0, updated_at: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const records = new StoredRecordSource(engine);
  const record = await records.insert('acme', 'articles', { title: 'Kept', label: 'one' });

  // Deleted by dan on a new host, restored by an old one: restored, and dan no longer its deleter.
  await records.delete('acme', 'articles', record.id, { deletedBy: dan.id });
  expect(await deleters(engine)).toEqual([record.id]);
  await restoreAsEarlierRelease(engine, record.id);
  expect(await records.get('acme', 'articles', record.id)).toEqual(record);
  expect(await deleters(engine)).toEqual([]);
  // Deleted again by no account (or by an old host): no deleter, so dan's DELETE of it answers the 404 with
  // deletedRecord, as to any account (record-update.test.ts).
  await records.delete('acme', 'articles', record.id);
  expect(await records.getDeleted('acme', 'articles', record.id)).toMatchObject({ deletedBy: null });
  expect(await records.restore('acme', 'articles', record.id)).toEqual(record);

  // Deleted by dan longer ago than the window, let go by an old host's next delete: the deleter goes with it.
  const longAgo = Date.now() - RECORD_RESTORE_WINDOW_MS - 1000;
  await records.delete('acme', 'articles', record.id, { deletedBy: dan.id, now: longAgo });
  expect(await deleters(engine)).toEqual([record.id]);
  await letGoAsEarlierRelease(engine, Date.now());
  expect(await engine.db.selectFrom('deleted_records').select('id').execute()).toEqual([]);
  expect(await deleters(engine)).toEqual([]);
}

describe('records deleted before the upgrade, on SQLite', () => {
  it('were deleted by no account, and restore', async () => {
    const dir = makeTempDir('slots-deleted-before-');
    try {
      const file = path.join(dir.path, 'app.db');
      const older = new Database(file);
      registerSqliteSortFold(older);
      migrate(older, MIGRATIONS.filter(BEFORE_STEP_18));
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

describe('a host of the release before step 18, on a migrated SQLite file', () => {
  it('restores records and lets old deletions go, their deleters with them', async () => {
    const dir = makeTempDir('slots-deleters-old-host-');
    try {
      const engine = SqliteEngine.open(path.join(dir.path, 'app.db'));
      try {
        await expectEarlierReleaseRestoresAndLetsGo(engine);
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
      await migratePostgres(client, POSTGRES_MIGRATIONS.filter(BEFORE_STEP_18));
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

describeWithPostgres()('a host of the release before step 18, on a migrated PostgreSQL database', () => {
  const postgres = usePostgresDatabases('deleters_old_host', { poolSize: 2, statementTimeoutMs: 2000 });

  it('restores records and lets old deletions go, their deleters with them', async () => {
    const engine = await openMigratedStorage(await postgres.create());
    try {
      await expectEarlierReleaseRestoresAndLetsGo(engine);
    } finally {
      await engine.close();
    }
  });
});
