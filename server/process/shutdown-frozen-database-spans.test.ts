/**
 * A traced host stopped while its PostgreSQL is frozen (SIGSTOP: connections open, nothing answers): the app's close
 * waits for the database until the shutdown's deadline, and the spans of the last requests (often the very ones an
 * operator needs to see what went wrong) must still reach the collector, a real OTLP/HTTP receiver here. They were
 * sent only after the app's close, which never came: lost with the process.
 */
import { SLOT_EVENTS_PATH, type SlotLoadEvent } from '../../shared';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { printedUrl, runServerEntry } from '../../testing/server/server-entry-run';
import { waitUntil } from '../../testing/server/wait-until';
import { startOtlpReceiver, type OtlpReceiver } from '../../testing/system/otlp-receiver';
import { POSTGRES_STOPPED_MESSAGE } from '../storage/postgres-outage-log';
import { STORES_CLOSE_TIMEOUT_MESSAGE } from './graceful-shutdown';

jest.setTimeout(90_000);

/** The entry `npm start` runs: tracing starts before anything loads http, express or pg. */
const ENTRY = 'server/main.ts';

/** The last request's trace, as its caller's `traceparent` gives it: its span is found by this id. */
const LAST_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

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
      SESSION_SECRET: 'a-session-secret-of-enough-characters',
      DEMO_PASSWORD: 'entry-demo-password',
      SHUTDOWN_TIMEOUT_MS: '1000',
      // Far above the shutdown's bound: the last counts' write waits this long for the frozen database.
      DATABASE_STATEMENT_TIMEOUT_MS: '40000',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_TRACES_SAMPLER: 'always_on',
      // No batch goes out on its own during the test: what reaches the receiver, the shutdown sent.
      OTEL_BSP_SCHEDULE_DELAY: '60000',
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
      // Answered at once (counted in memory), its counts written by the close: to a database that does not answer.
      const sent = await fetch(`${url}${SLOT_EVENTS_PATH}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          traceparent: `00-${LAST_TRACE}-${CALLER_SPAN}-01`,
        },
        body: JSON.stringify({ events: [BANNER, BANNER] }),
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
