/**
 * PostgreSQL frozen under a host (SIGSTOP: its connections stay open, nothing answers), then thawed: the host logs
 * the outage once as stopped, within the health watch's interval and deadline (server/storage/database-health-watch.ts)
 * and a margin, though nothing but its own background work asks the database, and once when it answers again;
 * /readyz says 503 meanwhile and 200 after, /healthz stays 200. The background readers' warnings meanwhile name the
 * database as the operator set it, without its password. Sessions in Redis, as the compose topology keeps them.
 */
import { PostgresServer, describeWithPostgres } from '../../testing/server/postgres-server';
import { waitUntil } from '../../testing/server/wait-until';
import type { AppServer } from '../../testing/system/app-server';
import { DATABASE_WATCH_INTERVAL_MS } from '../../server/storage/database-health-watch';
import { REPEATED_FAILURE_LOG_INTERVAL_MS } from '../../server/observability/repeated-failure-log';
import { POSTGRES_STOPPED_MESSAGE } from '../../server/storage/postgres-outage-log';
import { READINESS_CHECK_DEADLINE_MS } from '../../server/storage/within-deadline';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import { readinessWithin } from '../multi-instance/support/readiness';
import { requestJson } from '../multi-instance/support/session-client';
import { startPostgresHost } from './support/postgres-host';

jest.setTimeout(120_000);

interface LogLine {
  level: number;
  msg: string;
  err?: unknown;
  reader?: string;
  store?: string;
}

/** The host's log lines about PostgreSQL's state. */
function outageLines(host: AppServer): LogLine[] {
  return host.process.logLines<LogLine>().filter(({ msg }) => msg.startsWith('PostgreSQL '));
}

/** The background readers' warnings (repeated-failure-log.ts). */
function readerLines(host: AppServer): LogLine[] {
  return host.process.logLines<LogLine>().filter(({ reader }) => reader !== undefined);
}

/** Ignored by the test server (trust authentication), and never to be logged. */
const PASSWORD = 'frozen-secret-3141';

describeWithPostgres()('PostgreSQL frozen under a host', () => {
  let postgres: PostgresServer | undefined;
  let redis: RedisServerProcess | undefined;
  let host: AppServer | undefined;
  let databaseUrl: URL | undefined;

  beforeAll(async () => {
    postgres = await PostgresServer.start();
    redis = await RedisServerProcess.start();
    const url = new URL(await postgres.createDatabase('frozen_test'));
    url.password = PASSWORD;
    databaseUrl = url;
    host = await startPostgresHost(url.toString(), { env: { REDIS_URL: redis.url } });
  });

  afterAll(async () => {
    postgres?.thaw();
    await host?.stop();
    await redis?.stop();
    await postgres?.remove();
  });

  it('logs it once as stopped within a bounded time, once when it answers, with readiness following', async () => {
    const server = postgres as PostgresServer;
    const running = host as AppServer;
    expect((await requestJson(running.url, '/readyz')).status).toBe(200);
    // The probe's interval and deadline, and room for a loaded two-core machine.
    const bound = DATABASE_WATCH_INTERVAL_MS + READINESS_CHECK_DEADLINE_MS + 5_000;
    server.freeze();
    try {
      // Nothing asks the host anything meanwhile: a /readyz check would open connections of its own.
      await waitUntil(async () => outageLines(running).length >= 1, bound, 'the outage logged');
      const down = await requestJson(running.url, '/readyz');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'unavailable', checks: { database: 'failing' } });
      expect((await requestJson(running.url, '/healthz')).status).toBe(200);
    } finally {
      server.thaw();
    }
    await waitUntil(async () => outageLines(running).length >= 2, bound, 'the return logged');
    expect((await readinessWithin(running.url, 200, 15_000)).status).toBe(200);
    expect(outageLines(running).map(({ level, msg }) => [level, msg])).toEqual([
      [50, POSTGRES_STOPPED_MESSAGE],
      [30, expect.stringMatching(/^PostgreSQL answers again, after \d+(\.\d)? s$/)],
    ]);
  });

  it("names the database in the background readers' warnings, as the operator set it, without its password", async () => {
    const server = postgres as PostgresServer;
    const running = host as AppServer;
    const { hostname, port } = databaseUrl as URL;
    const database = `PostgreSQL "frozen_test" on ${hostname}:${port}`;
    const before = readerLines(running).length;
    server.freeze();
    try {
      // A reader's query fails at the pool's query timeout (5 s + 1 s by default) and is logged at once, unless the
      // outage above had that reader log within the interval: then at its next failure after the interval.
      const bound = REPEATED_FAILURE_LOG_INTERVAL_MS + 15_000;
      await waitUntil(async () => readerLines(running).length > before, bound, "a background reader's warning");
    } finally {
      server.thaw();
    }
    const warnings = readerLines(running).slice(before);
    for (const warning of warnings) {
      expect(warning).toMatchObject({ level: 40, store: database });
      expect(warning.msg).toContain(`(${database}: `);
    }
    expect(running.process.stdout()).not.toContain(PASSWORD);
    expect((await readinessWithin(running.url, 200, 15_000)).status).toBe(200);
  });
});
