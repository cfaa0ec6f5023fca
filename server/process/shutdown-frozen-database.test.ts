/**
 * A host stopped while its PostgreSQL is frozen (SIGSTOP: connections open, nothing answers) and its sessions live in
 * a Redis that answers: the shutdown's `notClosed` names only the database. The last slot counts, still to be written
 * to the frozen database, must not hold Redis's close (server/app.ts, close): Redis closes and is not named.
 */
import { SLOT_EVENTS_PATH, type SlotLoadEvent } from '../../shared';
import { describeWithCommand } from '../../testing/describe-with-command';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { printedUrl, runServerEntry } from '../../testing/server/server-entry-run';
import { waitUntil } from '../../testing/server/wait-until';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import { POSTGRES_STOPPED_MESSAGE } from '../storage/postgres-outage-log';
import { STORES_CLOSE_TIMEOUT_MESSAGE } from './graceful-shutdown';

jest.setTimeout(90_000);

const ENTRY = 'testing/server/start-server-entry.ts';

/**
 * A signed-out visitor's loads of the demo's banner: counted in memory, written to the database at the latest on
 * close.
 */
const BANNER: SlotLoadEvent = {
  remote: 'team_marketing',
  component: 'MaintenanceNotice',
  location: 'header-banner',
  outcome: 'rendered',
  phase: null,
  kind: null,
  loadMs: 140,
  startMs: 200,
};

interface LogLine {
  level: number;
  msg: string;
  outcome?: string;
  notClosed?: string[];
}

describeWithCommand(
  'redis-server',
  ['--version'],
  'redis-server',
)('a host stopped while its PostgreSQL is frozen and its Redis answers', () => {
  describeWithPostgres()('with sessions in Redis', () => {
    let postgres: PostgresServer | undefined;
    let redis: RedisServerProcess | undefined;

    beforeAll(async () => {
      [postgres, redis] = await Promise.all([PostgresServer.start(), RedisServerProcess.start()]);
    }, 60_000);

    afterAll(async () => {
      postgres?.thaw();
      await Promise.all([postgres?.remove(), redis?.stop()]);
    });

    it('names only the database in notClosed: Redis is closed though the last counts wait for the database', async () => {
      const server = postgres as PostgresServer;
      const started = runServerEntry(ENTRY, {
        DATABASE_URL: await server.createDatabase('frozen_beside_redis'),
        REDIS_URL: (redis as RedisServerProcess).url,
        SESSION_SECRET: 'a-session-secret-of-enough-characters',
        DEMO_PASSWORD: 'entry-demo-password',
        SHUTDOWN_TIMEOUT_MS: '1000',
        // Far above the shutdown's bound: the last counts' write waits this long for the frozen database.
        DATABASE_STATEMENT_TIMEOUT_MS: '40000',
      });
      try {
        const url = await printedUrl(started);
        server.freeze();
        // Again: a backend forked for a new connection of the pool just before the postmaster stopped is stopped too.
        await new Promise((resolve) => setTimeout(resolve, 200));
        server.freeze();
        await waitUntil(
          async () => started.logLines<LogLine>().some(({ msg }) => msg === POSTGRES_STOPPED_MESSAGE),
          30_000,
          'the outage logged',
        ).catch((error: unknown) => {
          throw new Error(`${String(error)}\n${started.output()}`);
        });
        // Counted in memory (the answer never waits for the database): the close writes them, to a database frozen.
        const sent = await fetch(`${url}${SLOT_EVENTS_PATH}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ events: [BANNER, BANNER, BANNER] }),
        });
        expect(sent.status).toBe(204);

        started.kill('SIGTERM');
        expect(await started.exited).toBe(1);
        const database = `PostgreSQL "frozen_beside_redis" on 127.0.0.1:${server.port}`;
        const lines = started.logLines<LogLine>();
        expect(lines).toContainEqual(
          expect.objectContaining({ level: 50, msg: STORES_CLOSE_TIMEOUT_MESSAGE, notClosed: [database] }),
        );
        expect(lines.at(-1)).toMatchObject({ msg: 'stopped', outcome: 'failed', notClosed: [database] });
      } finally {
        started.kill('SIGKILL');
        server.thaw();
      }
    });
  });
});
