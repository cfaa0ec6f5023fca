/**
 * An account disabled by a release before `users.sessions_since` existed (migration 12), upgraded, then enabled
 * again: its sessions of before stay ended, as for an account disabled after the upgrade (migration 14). Both engines,
 * from a database made by the older migrations with the account's row written as that release wrote it.
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
import { credentialStampOf, UserStore } from './user-store';

jest.setTimeout(30_000);

const DISABLED_AT = 1_700_000_000_000;
/** The stamp the account's sessions of before carry: its password's alone, as before migration 12. */
const OLD_STAMP = credentialStampOf('hash-of-dan', null);
const BEFORE_COLUMN = (step: { version: number }) => step.version < 12;
const ACCOUNTS = `INSERT INTO users (username, display_name, password_hash, created_at, updated_at, disabled_at)
  VALUES ('dan', 'Dan', 'hash-of-dan', 0, 0, ${DISABLED_AT}), ('eve', 'Eve', 'hash-of-eve', 0, 0, NULL)`;

/** After the upgrade: dan enabled again; his stamp is not his sessions' of before, eve's is hers as ever. */
async function expectSessionsOfBeforeEnded(engine: StorageEngine): Promise<void> {
  const users = new UserStore(engine);
  expect(await users.setDisabled('dan', false)).toBe(true);
  const dan = await users.findByUsername('dan');
  expect(dan?.credentialStamp).toBe(credentialStampOf('hash-of-dan', DISABLED_AT));
  expect(dan?.credentialStamp).not.toBe(OLD_STAMP);
  expect((await users.findByUsername('eve'))?.credentialStamp).toBe(credentialStampOf('hash-of-eve', null));
}

describe('an account disabled before the upgrade, on SQLite', () => {
  it('keeps its sessions of before ended once enabled again', async () => {
    const dir = makeTempDir('slots-disabled-before-');
    try {
      const file = path.join(dir.path, 'app.db');
      const older = new Database(file);
      registerSqliteSortFold(older);
      migrate(older, MIGRATIONS.filter(BEFORE_COLUMN));
      older.exec(ACCOUNTS);
      older.close();
      const engine = SqliteEngine.open(file);
      try {
        await expectSessionsOfBeforeEnded(engine);
      } finally {
        await engine.close();
      }
    } finally {
      dir.remove();
    }
  });
});

describeWithPostgres()('an account disabled before the upgrade, on PostgreSQL', () => {
  const postgres = usePostgresDatabases('disabled_before', { poolSize: 2, statementTimeoutMs: 2000 });

  it('keeps its sessions of before ended once enabled again', async () => {
    const storage = await postgres.create();
    await withPostgresClient(storage.url, async (client) => {
      await migratePostgres(client, POSTGRES_MIGRATIONS.filter(BEFORE_COLUMN));
      await client.query(ACCOUNTS);
    });
    const engine = await openMigratedStorage(storage);
    try {
      await expectSessionsOfBeforeEnded(engine);
    } finally {
      await engine.close();
    }
  });
});
