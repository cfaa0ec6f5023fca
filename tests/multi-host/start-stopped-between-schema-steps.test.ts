/**
 * A PostgreSQL host stopped while it applies the schema steps (health/starting-listener.ts): the step under way
 * commits, the start stops before the next one (exit 0), and the next start applies the steps left, the schema ending
 * complete; SIGINT stops it as SIGTERM does; a second signal while it stops ends it at once (1), said in its log, the
 * step under way rolled back by PostgreSQL and applied by the next start.
 *
 * A step is made slow without touching the server: the database is brought to the step before SLOW_STEP by this
 * server's own migration, and a session holds a lock on the table SLOW_STEP alters, so that the step waits for it.
 */
import { Client } from 'pg';
import {
  START_STOPPED_MESSAGE,
  STOPPED_AT_ONCE_MESSAGE,
  STOPPING_START_MESSAGE,
} from '../../server/health/starting-listener';
import { POSTGRES_MIGRATIONS } from '../../server/storage/migrations';
import { migratePostgres } from '../../server/storage/postgres-migrate';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { runServerEntry, type EntryRun } from '../../testing/server/server-entry-run';
import { waitUntil } from '../../testing/server/wait-until';
import { getFreePort } from '../../testing/system/free-port';
import { SHARED_SESSION_SECRET, startPostgresHost } from './support/postgres-host';
import { queryPostgres } from './support/postgres-query';

jest.setTimeout(180_000);

/** A step that alters one table (`ALTER TABLE placement_draft`), with steps before and after it. */
const SLOW_STEP = 19;
const SLOW_TABLE = 'placement_draft';
const ALL_VERSIONS = POSTGRES_MIGRATIONS.map((migration) => migration.version);
const upTo = (last: number) => ALL_VERSIONS.filter((version) => version <= last);

interface Line {
  msg?: string;
  signal?: string;
}

describeWithPostgres()('a PostgreSQL start stopped while it applies the schema steps', () => {
  const databases = usePostgresDatabases('schema_steps_stop', { poolSize: 2, statementTimeoutMs: 10_000 });
  const runs: EntryRun[] = [];
  afterEach(() => {
    for (const run of runs.splice(0)) run.kill('SIGKILL');
  });

  it('alters SLOW_TABLE in SLOW_STEP, and steps come after it', () => {
    const step = POSTGRES_MIGRATIONS.find((migration) => migration.version === SLOW_STEP);
    expect(step?.sql).toContain(`ALTER TABLE ${SLOW_TABLE}`);
    expect(ALL_VERSIONS.at(-1)).toBeGreaterThan(SLOW_STEP);
  });

  const versions = async (url: string) =>
    (await queryPostgres<{ version: number }>(url, 'SELECT version FROM schema_version ORDER BY version')).map((row) =>
      Number(row.version),
    );
  const messages = (run: EntryRun) => run.logLines<Line>().map((line) => line.msg ?? '');
  const logged = (run: EntryRun, message: string) => run.logLines<Line>().find((line) => line.msg === message);

  /**
   * A database at the steps before SLOW_STEP - 1 (so that the start applies one step, then waits in SLOW_STEP), a
   * host started on it, and `use` run once its SLOW_STEP waits for the lock `holder` holds on SLOW_TABLE.
   */
  async function whileSlowStepWaits(
    use: (run: EntryRun, releaseTable: () => Promise<void>, url: string) => Promise<void>,
  ): Promise<string> {
    const { url } = await databases.create();
    const migrating = new Client({ connectionString: url });
    await migrating.connect();
    await migratePostgres(
      migrating,
      POSTGRES_MIGRATIONS.filter((migration) => migration.version < SLOW_STEP - 1),
    ).finally(() => migrating.end());
    const holder = new Client({ connectionString: url, application_name: 'operator psql' });
    await holder.connect();
    let held = true;
    const releaseTable = async () => {
      if (!held) return;
      held = false;
      await holder.query('COMMIT');
    };
    try {
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE ${SLOW_TABLE} IN ACCESS SHARE MODE`);
      const port = await getFreePort();
      const run = runServerEntry('server/main.ts', {
        DATABASE_URL: url,
        SESSION_SECRET: SHARED_SESSION_SECRET,
        PORT: String(port),
      });
      runs.push(run);
      const slowStepWaits = async () =>
        (
          await queryPostgres<{ count: string }>(
            url,
            `SELECT count(*) AS count FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND query LIKE '%ALTER TABLE ${SLOW_TABLE}%'`,
          )
        )[0]?.count === '1';
      await waitUntil(slowStepWaits, 60_000, `step ${SLOW_STEP} waiting for the lock on ${SLOW_TABLE}`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { starting?: string }).starting).toMatch(/^applying the database schema/);
      await use(run, releaseTable, url);
    } finally {
      await releaseTable().catch(() => undefined);
      await holder.end();
    }
    return url;
  }

  /** Starts a host on `url` as a restart would, expects it to start, and stops it. */
  async function restartCompletes(url: string): Promise<void> {
    const restarted = await startPostgresHost(url);
    await restarted.stop();
    expect(await versions(url)).toEqual(ALL_VERSIONS);
  }

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s, commits the step under way and stops before the next: exit 0, and a restart applies the rest',
    async (signal) => {
      const url = await whileSlowStepWaits(async (run, releaseTable) => {
        let exited = false;
        void run.exited.then(() => (exited = true));
        run.kill(signal);
        await waitUntil(async () => messages(run).includes(STOPPING_START_MESSAGE), 10_000, 'stopping the start');
        expect(logged(run, STOPPING_START_MESSAGE)?.signal).toBe(signal);
        // The step under way is not cut: the start waits for it.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(exited).toBe(false);
        await releaseTable();
        expect(await run.exited).toBe(0);
        expect(logged(run, START_STOPPED_MESSAGE)?.signal).toBe(signal);
      });
      // SLOW_STEP committed (and the step before it); none after.
      expect(await versions(url)).toEqual(upTo(SLOW_STEP));
      const columns = await queryPostgres<{ name: string }>(
        url,
        `SELECT column_name AS name FROM information_schema.columns WHERE table_name = '${SLOW_TABLE}'`,
      );
      expect(columns.map((column) => column.name)).toEqual(expect.arrayContaining(['saved_over', 'saved_as']));
      await restartCompletes(url);
    },
  );

  it('exits at once (1) on a second signal while it stops, saying so; the step under way is applied again', async () => {
    const url = await whileSlowStepWaits(async (run, _releaseTable, url) => {
      run.kill('SIGTERM');
      await waitUntil(async () => messages(run).includes(STOPPING_START_MESSAGE), 10_000, 'stopping the start');
      run.kill('SIGINT');
      expect(await run.exited).toBe(1);
      expect(logged(run, STOPPED_AT_ONCE_MESSAGE)?.signal).toBe('SIGINT');
      expect(messages(run)).not.toContain(START_STOPPED_MESSAGE);
      // PostgreSQL ends the step's transaction once it sees its client gone (it checks every second).
      const stepWaits = () =>
        queryPostgres<{ count: string }>(
          url,
          `SELECT count(*) AS count FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
        ).then((rows) => Number(rows[0]?.count));
      await waitUntil(async () => (await stepWaits()) === 0, 10_000, 'no backend waiting for the lock');
    });
    expect(await versions(url)).toEqual(upTo(SLOW_STEP - 1));
    await restartCompletes(url);
  });
});
