/**
 * SIGTERM to a host whose PostgreSQL is frozen (SIGSTOP: its connections stay open, nothing answers), with a query
 * timeout far above SHUTDOWN_TIMEOUT_MS, as an operator allowing long reports sets it: the host must still exit
 * within SHUTDOWN_TIMEOUT_MS and the least time its stores get to close (server/process/graceful-shutdown.ts), and
 * say why it did not close them, before an orchestrator's SIGKILL would stop it with nothing said. The health
 * watch's probe and a request in flight both hold a connection of the pool meanwhile.
 */
import { PostgresServer, describeWithPostgres } from '../../testing/server/postgres-server';
import { waitUntil } from '../../testing/server/wait-until';
import { DEMO_PASSWORD, DEMO_USERNAME, type AppServer } from '../../testing/system/app-server';
import { POSTGRES_STOPPED_MESSAGE } from '../../server/storage/postgres-outage-log';
import { STORES_CLOSE_MIN_MS, STORES_CLOSE_TIMEOUT_MESSAGE } from '../../server/process/graceful-shutdown';
import { signIn } from '../multi-instance/support/session-client';
import { startPostgresHost } from './support/postgres-host';

jest.setTimeout(120_000);

const SHUTDOWN_TIMEOUT_MS = 2_000;
/** Far above the shutdown's bound: without one of its own, closing the pool would wait for this. */
const STATEMENT_TIMEOUT_MS = 40_000;
/** Room for a loaded two-core machine to handle the signal and write its last lines. */
const MARGIN_MS = 4_000;

interface LogLine {
  level: number;
  msg: string;
  outcome?: string;
}

describeWithPostgres()('a host stopped while PostgreSQL is frozen', () => {
  let postgres: PostgresServer | undefined;
  let host: AppServer | undefined;

  beforeAll(async () => {
    postgres = await PostgresServer.start();
    host = await startPostgresHost(await postgres.createDatabase('frozen_shutdown'), {
      env: {
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
        DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      },
    });
  });

  afterAll(async () => {
    postgres?.thaw();
    await host?.stop();
    await postgres?.remove();
  });

  it('exits within SHUTDOWN_TIMEOUT_MS and the stores’ least time, saying it left the stores unclosed', async () => {
    const server = postgres as PostgresServer;
    const running = host as AppServer;
    const cookie = await signIn(running.url, DEMO_USERNAME, DEMO_PASSWORD);
    server.freeze();
    // The health watch's probe is waiting on a connection of the pool once the outage is logged.
    await waitUntil(
      async () => running.process.logLines<LogLine>().some(({ msg }) => msg === POSTGRES_STOPPED_MESSAGE),
      30_000,
      'the outage logged',
    );
    // A signed-in request in flight: its session is read from the frozen PostgreSQL.
    const inFlight = fetch(`${running.url}/me`, { headers: { cookie } }).then(
      (response) => response.status,
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    const started = Date.now();
    process.kill(running.process.pid, 'SIGTERM');
    const bound = SHUTDOWN_TIMEOUT_MS + STORES_CLOSE_MIN_MS + MARGIN_MS;
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      running.process.exited,
      new Promise((resolve) => (timer = setTimeout(() => resolve('still running'), bound))),
    ]);
    clearTimeout(timer);
    const tookMs = Date.now() - started;
    expect(exit).toEqual({ code: 1, signal: null });
    expect(tookMs).toBeLessThan(bound);
    expect(await inFlight).toBe('cut');
    const lines = running.process.logLines<LogLine>();
    expect(lines).toContainEqual(expect.objectContaining({ level: 50, msg: STORES_CLOSE_TIMEOUT_MESSAGE }));
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped', outcome: 'failed' });
  });
});
