/**
 * A host whose start takes long listens meanwhile (health/starting-listener.ts): while it waits for another host's
 * schema steps (PostgreSQL's migration lock) its probes answer, as they did only during the search words' indexing
 * before; SIGTERM then stops the start cleanly (exit 0, the database as a restart expects), where it ended the
 * process at once; and a port already taken is said at once, without indexing, where it was said after the indexing.
 */
import net from 'node:net';
import { Client } from 'pg';
import { START_STOPPED_MESSAGE, STOPPING_START_MESSAGE } from '../../server/health/starting-listener';
import { WORDS_VERSION } from '../../server/resources/record-words';
import { MIGRATION_LOCK_KEY } from '../../server/storage/postgres-migrate';
import { describeWithPostgres } from '../../testing/server/postgres-server';
import { runServerEntry, type EntryRun } from '../../testing/server/server-entry-run';
import { waitUntil } from '../../testing/server/wait-until';
import { getFreePort } from '../../testing/system/free-port';
import { useHostsOnSharedPostgres } from '../../testing/system/hosts-on-shared-postgres';
import { SHARED_SESSION_SECRET, startPostgresHost } from './support/postgres-host';
import { addArticlesOfOlderWords, queryPostgres } from './support/postgres-query';

jest.setTimeout(180_000);

/** Enough for the indexing to take seconds (a host indexed 20,000 in about one). */
const RECORDS = 40_000;

interface Line {
  msg?: string;
  starting?: string;
}

describeWithPostgres()('a host listening before its start has finished', () => {
  const shared = useHostsOnSharedPostgres('start_stopped_test', startPostgresHost);
  const runs: EntryRun[] = [];
  afterEach(() => {
    for (const run of runs.splice(0)) run.kill('SIGKILL');
  });

  /** server/main.ts on the shared database, as a host of it, listening on `port`. */
  function runHost(port: number): EntryRun {
    const run = runServerEntry('server/main.ts', {
      DATABASE_URL: shared.databaseUrl,
      SESSION_SECRET: SHARED_SESSION_SECRET,
      PORT: String(port),
    });
    runs.push(run);
    return run;
  }
  const get = (url: string) =>
    fetch(url).then(
      async (response) => ({ response, body: (await response.json()) as Record<string, unknown> }),
      () => undefined,
    );
  const messages = (run: EntryRun) => run.logLines<Line>().map((line) => line.msg ?? '');

  /** Runs `use` while a session holds the migration lock, as a host applying the schema steps would. */
  async function whileMigrationLockHeld(use: (release: () => Promise<void>) => Promise<void>): Promise<void> {
    const holder = new Client({ connectionString: shared.databaseUrl, application_name: 'slots-server migrations' });
    await holder.connect();
    let held = true;
    const release = async () => {
      if (!held) return;
      held = false;
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    };
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await use(release);
    } finally {
      await release().catch(() => undefined);
      await holder.end();
    }
  }

  it('answers /healthz 200 and /readyz 503 while it waits for the migration lock, then migrates and serves', async () => {
    await whileMigrationLockHeld(async (release) => {
      const port = await getFreePort();
      const run = runHost(port);
      const url = `http://127.0.0.1:${port}`;
      await waitUntil(async () => (await get(`${url}/healthz`))?.response.status === 200, 60_000, '/healthz 200');
      const ready = await get(`${url}/readyz`);
      expect(ready?.response.status).toBe(503);
      expect(ready?.body).toMatchObject({
        status: 'unavailable',
        checks: { started: 'failing' },
        starting: expect.stringMatching(/^waiting for the database migration lock, held by PostgreSQL backend \d+/),
      });
      expect((await get(`${url}/slots`))?.response.status).toBe(503);
      // Still waiting: nothing migrated while the lock is held.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await get(`${url}/readyz`))?.response.status).toBe(503);
      expect(messages(run)).not.toContain('database schema created');

      await release();
      await waitUntil(async () => (await get(`${url}/readyz`))?.response.status === 200, 60_000, '/readyz 200');
      // Its output may come after its answer.
      await waitUntil(async () => messages(run).includes('listening'), 10_000, 'the line "listening"');
      expect(messages(run)).toContain('database schema created');
      expect(messages(run).filter((msg) => msg.startsWith('listening'))).toEqual([
        expect.stringMatching(/^listening while starting: /),
        'listening',
      ]);
      run.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    });
  });

  it('stops cleanly on SIGTERM while it waits for the migration lock: exit 0, and a restart starts', async () => {
    await whileMigrationLockHeld(async (release) => {
      const port = await getFreePort();
      const run = runHost(port);
      await waitUntil(
        async () => (await get(`http://127.0.0.1:${port}/healthz`))?.response.status === 200,
        60_000,
        '/healthz 200',
      );
      run.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      expect(messages(run)).toEqual(expect.arrayContaining([STOPPING_START_MESSAGE, START_STOPPED_MESSAGE]));
      // Its wait ended with it: PostgreSQL keeps no backend of it queued for the lock (it checks every second).
      const waiting = () =>
        queryPostgres<{ count: string }>(
          shared.databaseUrl,
          `SELECT count(*) AS count FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
        ).then((rows) => Number(rows[0]?.count));
      await waitUntil(async () => (await waiting()) === 0, 5_000, 'no backend waiting for the lock');
      await release();
    });
    const restarted = await startPostgresHost(shared.databaseUrl);
    await restarted.stop();
  });

  describe('with records whose search words are of an older version', () => {
    beforeAll(async () => {
      const first = await startPostgresHost(shared.databaseUrl);
      await first.stop();
      await addArticlesOfOlderWords(shared.databaseUrl, RECORDS);
    });
    beforeEach(async () => {
      await queryPostgres(shared.databaseUrl, `UPDATE record_words_state SET words_version = ${WORDS_VERSION - 1}`);
    });
    const wordsVersion = async () =>
      Number(
        (await queryPostgres<{ v: number }>(shared.databaseUrl, 'SELECT words_version AS v FROM record_words_state'))[0]
          ?.v,
      );

    it('refuses a taken port at once, without indexing', async () => {
      const taken = net.createServer();
      const port = await getFreePort();
      await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
      try {
        const run = runHost(port);
        expect(await run.exited).toBe(1);
        expect(run.output()).toContain(`The server could not start: PORT=${port} is taken on 127.0.0.1`);
        expect(messages(run).filter((msg) => msg.startsWith('search words indexed'))).toEqual([]);
        expect(await wordsVersion()).toBe(WORDS_VERSION - 1);
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    });

    it('stops cleanly on SIGTERM while it indexes: exit 0 after a batch, and a restart indexes and starts', async () => {
      const port = await getFreePort();
      const run = runHost(port);
      await waitUntil(
        async () => ((await get(`http://127.0.0.1:${port}/readyz`))?.body.starting as string)?.startsWith('indexing'),
        60_000,
        '/readyz saying it indexes',
      );
      run.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      expect(messages(run)).toEqual(expect.arrayContaining([STOPPING_START_MESSAGE, START_STOPPED_MESSAGE]));
      expect(messages(run).filter((msg) => msg.startsWith('search words indexed'))).toEqual([]);
      expect(await wordsVersion()).toBe(WORDS_VERSION - 1);

      const restarted = await startPostgresHost(shared.databaseUrl);
      await restarted.stop();
      expect(await wordsVersion()).toBe(WORDS_VERSION);
    });
  });
});
