/**
 * A host stopped while its PostgreSQL is frozen (SIGSTOP: connections open, nothing answers) and its sessions live in
 * a Redis that answers: the shutdown's `notClosed` names only the database. The last slot counts, still to be written
 * to the frozen database, must not hold Redis's close (server/app.ts, close): Redis closes and is not named.
 */
import { SLOT_EVENTS_PATH } from '../../shared';
import { describeWithCommand } from '../../testing/describe-with-command';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { BANNER_LOAD, FROZEN_STOP_ENV, freezeUntilOutageLogged } from '../../testing/server/frozen-database-stop';
import { printedUrl, runServerEntry } from '../../testing/server/server-entry-run';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import { STORES_CLOSE_TIMEOUT_MESSAGE } from './graceful-shutdown';

jest.setTimeout(90_000);

const ENTRY = 'testing/server/start-server-entry.ts';

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
        ...FROZEN_STOP_ENV,
      });
      try {
        const url = await printedUrl(started);
        await freezeUntilOutageLogged(server, started);
        // Counted in memory (the answer never waits for the database): the close writes them, to a database frozen.
        const sent = await fetch(`${url}${SLOT_EVENTS_PATH}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ events: [BANNER_LOAD, BANNER_LOAD, BANNER_LOAD] }),
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
