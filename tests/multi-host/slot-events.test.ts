/**
 * Slot events across two real server processes sharing only PostgreSQL: beacons sent to either host are counted
 * once, in the same rows, and either host's statistics show the sum within a couple of seconds.
 */
import { SLOT_EVENTS_PATH, type SlotLoadEvent, type SlotStatsPayload } from '../../shared';
import { PostgresServer, describeWithPostgres } from '../../testing/server/postgres-server';
import { DEMO_PASSWORD, DEMO_USERNAME, type AppServer } from '../../testing/system/app-server';
import { requestJson, signIn } from '../multi-instance/support/session-client';
import { startPostgresHost } from './support/postgres-host';

jest.setTimeout(120_000);

const BANNER = { remote: 'team_marketing', component: 'MaintenanceNotice', location: 'header-banner' };

/** `count` loads of the banner, the first `failing` of them failed in the manifest phase. */
function banner(count: number, failing: number): SlotLoadEvent[] {
  return Array.from({ length: count }, (_, index) =>
    index < failing
      ? { ...BANNER, outcome: 'failed', phase: 'manifest', kind: 'remote-unavailable', loadMs: 900, startMs: 200 }
      : { ...BANNER, outcome: 'rendered', phase: null, kind: null, loadMs: 140, startMs: 200 },
  );
}

describeWithPostgres()('slot events on two hosts sharing only PostgreSQL', () => {
  let postgres: PostgresServer | undefined;
  let first: AppServer | undefined;
  let second: AppServer | undefined;

  beforeAll(async () => {
    postgres = await PostgresServer.start();
    const databaseUrl = await postgres.createDatabase('slot_events_hosts');
    first = await startPostgresHost(databaseUrl);
    second = await startPostgresHost(databaseUrl);
  });

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await postgres?.remove();
  });

  it('sum the beacons each host took, on either host', async () => {
    const hosts: readonly [AppServer, AppServer] = [first as AppServer, second as AppServer];
    // Signed-out visitors' beacons, as a sign-in page sends them: one to each host.
    for (const [host, events] of [
      [hosts[0], banner(10, 3)],
      [hosts[1], banner(20, 7)],
    ] as const) {
      const sent = await requestJson(host.url, SLOT_EVENTS_PATH, { method: 'POST', body: { events } });
      expect(sent.status).toBe(204);
    }
    const cookies = await Promise.all(hosts.map((host) => signIn(host.url, DEMO_USERNAME, DEMO_PASSWORD)));
    // Each host writes its counts once a second: within a few seconds both see both.
    const until = Date.now() + 10_000;
    for (const [index, host] of hosts.entries()) {
      let row: SlotStatsPayload['anonymous']['stats'][number] | undefined;
      while (row?.loads !== 30) {
        if (Date.now() > until) throw new Error(`host ${index + 1} saw ${JSON.stringify(row)}`);
        const answer = await requestJson(host.url, '/api/slot-stats?window=5m', { cookie: cookies[index] });
        expect(answer.status).toBe(200);
        // Signed-out loads are counted apart from staff's (never a release's health): under `anonymous`.
        row = (answer.body as SlotStatsPayload).anonymous.stats.find((stats) => stats.component === BANNER.component);
        if (row?.loads !== 30) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(row).toEqual(
        expect.objectContaining({
          ...BANNER,
          release: '',
          failed: 10,
          failureRate: 10 / 30,
          phases: expect.objectContaining({ manifest: 10 }),
        }),
      );
    }
  });
});
