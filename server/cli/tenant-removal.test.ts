/**
 * A tenant's removal against a host still writing, on PostgreSQL (where the commands' exclusive lock keeps out only
 * other commands): a record being added to the tenant while it is removed is counted, and refuses the removal without
 * --with-data, rather than going with the tenant by its foreign key's cascade; a flag setting made for it meanwhile is
 * refused, rather than outliving it.
 */
import { Client } from 'pg';
import { OPERATOR_ROLE } from '../../shared';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { addUser, createTestApp } from '../../testing/server/test-app';
import { waitUntil } from '../../testing/server/wait-until';
import { EXCLUSIVE_LOCK_KEY } from '../storage/postgres-engine';
import { FlagTenantMissingError } from '../flags/feature-flag-store';
import { removeTenant, TenantHoldsDataError } from './tenant-removal';

jest.setTimeout(90_000);

describeWithPostgres()('removeTenant while a host writes (PostgreSQL)', () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await PostgresServer.start();
  }, 60_000);
  afterAll(() => postgres.remove(), 30_000);

  it('counts a record committed in the tenant during the removal, and refuses without --with-data', async () => {
    const url = await postgres.createDatabase('tenant_removal_race');
    const testApp = await createTestApp({
      storage: { kind: 'postgres', url, poolSize: 3, statementTimeoutMs: 20_000 },
    });
    const writer = new Client({ connectionString: url, application_name: 'a host adding a record' });
    const watcher = new Client({ connectionString: url });
    try {
      const { app } = testApp;
      // Someone administers after globex is gone: only the data can refuse the removal.
      await addUser(app, 'zoe', 'member-password-123', ['acme', 'globex']);
      await app.users.setRole('zoe', OPERATOR_ROLE);
      await writer.connect();
      await watcher.connect();
      // A host's record in globex, its transaction not committed yet when the removal starts.
      await writer.query('BEGIN');
      await writer.query(
        `INSERT INTO records (tenant_id, resource, data, created_at, updated_at)
         VALUES ('globex', 'notes', '{"title":"added during the removal"}', 0, 0)`,
      );
      const outcome = removeTenant(app.storage, 'globex').then(
        () => 'removed',
        (error: unknown) => error,
      );
      // The removal waits for that transaction (on the tenant's row, or on its delete).
      await waitUntil(
        async () => {
          const waiting = await watcher.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
          );
          return (waiting.rows[0] as { n: number }).n > 0;
        },
        10_000,
        'the removal waiting for the writing transaction',
      );
      await writer.query('COMMIT');

      expect(await outcome).toBeInstanceOf(TenantHoldsDataError);
      const left = await watcher.query("SELECT count(*)::int AS n FROM records WHERE tenant_id = 'globex'");
      expect(left.rows).toEqual([{ n: 1 }]);
      expect(await app.tenants.get('globex')).toBeDefined();
    } finally {
      await writer.end().catch(() => undefined);
      await watcher.end().catch(() => undefined);
      await testApp.close();
    }
  });

  it('refuses a flag setting for the tenant made while it is removed, rather than leaving it behind', async () => {
    const url = await postgres.createDatabase('tenant_removal_flag_race');
    const testApp = await createTestApp({
      storage: { kind: 'postgres', url, poolSize: 3, statementTimeoutMs: 20_000 },
    });
    const remover = new Client({ connectionString: url, application_name: 'tenant:remove between count and commit' });
    const watcher = new Client({ connectionString: url });
    try {
      const { app } = testApp;
      await remover.connect();
      await watcher.connect();
      // removeTenant's transaction, held open after it counted and deleted globex's settings: the lock it runs
      // under (StorageEngine.exclusive), then its deletes, not committed yet.
      await remover.query('BEGIN');
      await remover.query('SELECT pg_advisory_xact_lock($1)', [EXCLUSIVE_LOCK_KEY]);
      await remover.query("DELETE FROM feature_flags WHERE tenant = 'globex'");
      await remover.query("DELETE FROM memberships WHERE tenant_id = 'globex'");
      await remover.query("DELETE FROM tenants WHERE id = 'globex'");
      // `npm run flag -- set beta on --tenant globex`, having found globex before the removal began.
      const outcome = app.flags.set('beta', true, 'globex').then(
        () => 'set',
        (error: unknown) => error,
      );
      await waitUntil(
        async () => {
          const waiting = await watcher.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
          );
          return (waiting.rows[0] as { n: number }).n > 0 || (await Promise.race([outcome, 'pending'])) !== 'pending';
        },
        10_000,
        'the setting waiting for the removal',
      );
      await remover.query('COMMIT');

      expect(await outcome).toBeInstanceOf(FlagTenantMissingError);
      const left = await watcher.query("SELECT count(*)::int AS n FROM feature_flags WHERE tenant = 'globex'");
      expect(left.rows).toEqual([{ n: 0 }]);
    } finally {
      await remover.end().catch(() => undefined);
      await watcher.end().catch(() => undefined);
      await testApp.close();
    }
  });
});
