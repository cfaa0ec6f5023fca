/**
 * A host starting on PostgreSQL while another session holds the migration lock (the first host of a new release
 * applying its steps, a host frozen mid-migration, an operator's psql) waits for it without a deadline. It says so,
 * naming the session, and says when it got the lock: an upgrade probe's second host waited 20 s with not one line.
 */
import { Client } from 'pg';
import pino from 'pino';
import { MIGRATION_LOCK_KEY } from './postgres-migrate';
import { migrationLockWaitMessage, StorageModule } from './storage-module';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { waitUntil } from '../../testing/server/wait-until';

interface Line {
  msg: string;
  lockHolder?: { pid: number; application: string; client: string | null } | null;
  waitedMs?: number;
}

function capturingModule(settings: ConstructorParameters<typeof StorageModule>[0]) {
  const lines: Line[] = [];
  const module = new StorageModule(
    settings,
    pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Line) }),
  );
  return { module, lines };
}

describeWithPostgres()('the migration lock on PostgreSQL', () => {
  const databases = usePostgresDatabases('migration_lock', { poolSize: 2, statementTimeoutMs: 5000 });

  it('a start that waits for it says who holds it, then how long it waited, and migrates after', async () => {
    const settings = await databases.create();
    if (settings.kind !== 'postgres') throw new Error('expected PostgreSQL settings');
    const holder = new Client({ connectionString: settings.url, application_name: 'operator psql' });
    await holder.connect();
    const { module, lines } = capturingModule(settings);
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      const holderPid = Number((await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
      const loading = module.load();
      await waitUntil(
        async () => lines.some((line) => line.msg.startsWith('waiting for the database migration lock')),
        5000,
        'the waiting line',
      );
      const waiting = lines.find((line) => line.msg.startsWith('waiting for the database migration lock'));
      expect(waiting?.lockHolder).toEqual({ pid: holderPid, application: 'operator psql', client: '127.0.0.1' });
      expect(waiting?.msg).toBe(
        migrationLockWaitMessage({ pid: holderPid, application: 'operator psql', client: '127.0.0.1' }),
      );
      expect(waiting?.msg).toContain(`PostgreSQL backend ${holderPid} (application "operator psql", from 127.0.0.1)`);
      // Still waiting: nothing migrated while the lock is held.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lines.map((line) => line.msg)).not.toContain('database schema created');

      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      await loading;
      const messages = lines.map((line) => line.msg);
      expect(messages[1]).toMatch(/^database migration lock taken after \d+\.\d s$/);
      expect(lines[1]?.waitedMs).toBeGreaterThanOrEqual(300);
      expect(messages[2]).toBe('database schema created');
    } finally {
      await holder.end();
      await module.close();
    }
  });

  it('a start that finds it free says nothing of it', async () => {
    const { module, lines } = capturingModule(await databases.create());
    try {
      await module.load();
      expect(lines.map((line) => line.msg)).toEqual(['database schema created']);
    } finally {
      await module.close();
    }
  });
});
