/**
 * A host starting on PostgreSQL while another session holds the migration lock (the first host of a new release
 * applying its steps, a host frozen mid-migration, an operator's psql) waits for it without a deadline. It says so,
 * naming the session, and says when it got the lock: an upgrade probe's second host waited 20 s with not one line.
 */
import { Client } from 'pg';
import pino from 'pino';
import { MIGRATION_LOCK_KEY } from './postgres-migrate';
import { migrationLockWaitMessage, schemaStepsMessage, StorageModule } from './storage-module';
import { RELEASE_SCHEMA_VERSION } from './migrations';
import { StartProgress } from '../process/start-progress';
import { describeWithPostgres, usePostgresDatabases, withPostgresClient } from '../../testing/server/postgres-server';
import { waitUntil } from '../../testing/server/wait-until';

interface Line {
  msg: string;
  lockHolder?: { pid: number; application: string; client: string | null } | null;
  waitedMs?: number;
}

function capturingModule(settings: ConstructorParameters<typeof StorageModule>[0], startup?: StartProgress) {
  const lines: Line[] = [];
  const module = new StorageModule(
    settings,
    pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Line) }),
    startup,
  );
  return { module, lines };
}

/** The schema versions recorded in the database at `url` (none: no schema_version table yet). */
function recordedVersions(url: string): Promise<number[]> {
  return withPostgresClient(url, async (client) => {
    const table = await client.query(`SELECT to_regclass('schema_version') AS t`);
    if (table.rows[0]?.t === null) return [];
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_version ORDER BY version');
    return rows.map((row) => Number(row.version));
  });
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

  it('tells the start of its wait and of the steps it applies, listened to before the first step', async () => {
    const settings = await databases.create();
    if (settings.kind !== 'postgres') throw new Error('expected PostgreSQL settings');
    const holder = new Client({ connectionString: settings.url, application_name: 'operator psql' });
    await holder.connect();
    const startup = new StartProgress();
    const heard: Array<{ reason: string; recorded: number[] }> = [];
    startup.onLongStart(async (reason) => {
      heard.push({ reason, recorded: await recordedVersions(settings.url) });
    });
    const { module } = capturingModule(settings, startup);
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      const loading = module.load();
      await waitUntil(async () => heard.length > 0, 5000, 'the wait told');
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      await loading;
      const all = Array.from({ length: RELEASE_SCHEMA_VERSION }, (_, index) => index + 1);
      expect(heard.map((told) => told.reason)).toEqual([
        expect.stringMatching(/^waiting for the database migration lock, held by PostgreSQL backend \d+/),
        schemaStepsMessage(all),
      ]);
      expect(schemaStepsMessage(all)).toBe(`applying the database schema steps 1 to ${RELEASE_SCHEMA_VERSION}`);
      // Told before the first step: nothing was recorded yet.
      expect(heard[1]?.recorded).toEqual([]);
    } finally {
      await holder.end();
      await module.close();
    }
  });

  it('stops a wait for the lock at once when the start is stopped, and applies no step', async () => {
    const settings = await databases.create();
    if (settings.kind !== 'postgres') throw new Error('expected PostgreSQL settings');
    const holder = new Client({ connectionString: settings.url, application_name: 'operator psql' });
    await holder.connect();
    const startup = new StartProgress();
    const { module, lines } = capturingModule(settings, startup);
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      const loading = module.load();
      await waitUntil(
        async () => lines.some((line) => line.msg.startsWith('waiting for the database migration lock')),
        5000,
        'the waiting line',
      );
      const stopped = new Error('stopped by the test');
      startup.stop(stopped);
      await expect(loading).rejects.toBe(stopped);
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      expect(await recordedVersions(settings.url)).toEqual([]);
    } finally {
      await holder.end();
      await module.close();
    }
  });

  it('applies no step when the listener of the steps refuses (the start could not listen)', async () => {
    const settings = await databases.create();
    const startup = new StartProgress();
    const refused = new Error('PORT=3000 is taken');
    startup.onLongStart(() => startup.stop(refused));
    const { module } = capturingModule(settings, startup);
    try {
      await expect(module.load()).rejects.toBe(refused);
      if (settings.kind !== 'postgres') throw new Error('expected PostgreSQL settings');
      expect(await recordedVersions(settings.url)).toEqual([]);
    } finally {
      await module.close();
    }
  });
});
