/**
 * A traced host stopped while its PostgreSQL is frozen (SIGSTOP: connections open, nothing answers): the app's close
 * waits for the database until the shutdown's deadline, and the spans of the last requests (often the very ones an
 * operator needs to see what went wrong) must still reach the collector, a real OTLP/HTTP receiver here. They were
 * sent only after the app's close, which never came: lost with the process.
 */
import { SLOT_EVENTS_PATH } from '../../shared';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { BANNER_LOAD, FROZEN_STOP_ENV, freezeUntilOutageLogged } from '../../testing/server/frozen-database-stop';
import { printedUrl, runServerEntry } from '../../testing/server/server-entry-run';
import { startOtlpReceiver, type OtlpReceiver } from '../../testing/system/otlp-receiver';
import { STORES_CLOSE_TIMEOUT_MESSAGE } from './graceful-shutdown';

jest.setTimeout(90_000);

/** The entry `npm start` runs: tracing starts before anything loads http, express or pg. */
const ENTRY = 'server/main.ts';

/** The last request's trace, as its caller's `traceparent` gives it: its span is found by this id. */
const LAST_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

interface LogLine {
  level: number;
  msg: string;
  outcome?: string;
}

describeWithPostgres()('a traced host stopped while its PostgreSQL is frozen', () => {
  let postgres: PostgresServer | undefined;
  let receiver: OtlpReceiver | undefined;

  beforeAll(async () => {
    [postgres, receiver] = await Promise.all([PostgresServer.start(), startOtlpReceiver()]);
  }, 60_000);

  afterAll(async () => {
    postgres?.thaw();
    await Promise.all([postgres?.remove(), receiver?.close()]);
  });

  it("sends the last request's span within the shutdown's deadline, though the app's close never ends", async () => {
    const server = postgres as PostgresServer;
    const collector = receiver as OtlpReceiver;
    const started = runServerEntry(ENTRY, {
      DATABASE_URL: await server.createDatabase('frozen_traced'),
      ...FROZEN_STOP_ENV,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_TRACES_SAMPLER: 'always_on',
      // No batch goes out on its own during the test: what reaches the receiver, the shutdown sent.
      OTEL_BSP_SCHEDULE_DELAY: '60000',
    });
    try {
      const url = await printedUrl(started);
      await freezeUntilOutageLogged(server, started);
      // Answered at once (counted in memory), its counts written by the close: to a database that does not answer.
      const sent = await fetch(`${url}${SLOT_EVENTS_PATH}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          traceparent: `00-${LAST_TRACE}-${CALLER_SPAN}-01`,
        },
        body: JSON.stringify({ events: [BANNER_LOAD, BANNER_LOAD] }),
      });
      expect(sent.status).toBe(204);
      expect(collector.spans.filter((span) => span.traceId === LAST_TRACE)).toEqual([]);

      started.kill('SIGTERM');
      expect(await started.exited).toBe(1);
      const lines = started.logLines<LogLine>();
      // The stop did end at its deadline, the database not closed: the spans went out beside the close, not after.
      expect(lines).toContainEqual(expect.objectContaining({ level: 50, msg: STORES_CLOSE_TIMEOUT_MESSAGE }));
      expect(lines.at(-1)).toMatchObject({ msg: 'stopped', outcome: 'failed' });
      expect(lines.map(({ msg }) => msg)).not.toContain('shutdown: the last spans were not sent');
      const last = collector.spans.filter((span) => span.traceId === LAST_TRACE);
      expect(last).toContainEqual(
        expect.objectContaining({ name: `POST ${SLOT_EVENTS_PATH}`, parentSpanId: CALLER_SPAN, kind: 2 }),
      );
    } finally {
      started.kill('SIGKILL');
      server.thaw();
    }
  });
});
