/**
 * Two hosts on one database sum their events: each takes beacons of its own visitors, and either host's statistics
 * show the sum, on one SQLite file and on one PostgreSQL, as the releases are shared. An automatic rollback decided
 * by one host is told by both (a log line and a counter each), so an alert does not depend on which host decided.
 */
import pino from 'pino';
import { SLOT_EVENTS_PATH, SLOT_STATS_PATH, type SlotStatsPayload } from '../../shared';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import {
  placedSlotsOptions,
  publishAndActivate,
  slotLoadEvents,
  startDescriptorOrigin,
  type DescriptorOrigin,
} from '../../testing/server/released-remote';
import {
  closeTwoHosts,
  createTestApp,
  createTwoHosts,
  signedInAgent,
  type TestAppOptions,
} from '../../testing/server/test-app';

jest.setTimeout(60_000);

const SLOT = { remote: 'team_billing', component: 'InvoiceBanner', location: 'header-banner' };
const OPTIONS: TestAppOptions = {
  releasePollMs: 100,
  slotEvents: { canary: { enabled: false } },
  ...placedSlotsOptions([SLOT]),
};

let origin: DescriptorOrigin;
beforeAll(async () => {
  origin = await startDescriptorOrigin({ name: 'team_billing', components: ['InvoiceBanner'] });
});
afterAll(() => origin.close());

async function sumOfTwoHosts(options: TestAppOptions): Promise<SlotStatsPayload[]> {
  const hosts = await createTwoHosts(createTestApp, { ...options, env: { REMOTES_CONFIG: origin.remotesConfig } });
  try {
    const [first, second] = hosts;
    await publishAndActivate(first.app, 'team_billing', origin.url, ['1.0.0']);
    // The second host serves the release once its snapshot has read it.
    await second.app.releases.snapshot.refresh();
    const onFirst = await signedInAgent(first.app, 'operator');
    const onSecond = await signedInAgent(second.app, 'operator');
    await onFirst
      .post(SLOT_EVENTS_PATH)
      .send({ events: slotLoadEvents(SLOT, 30, 3) })
      .expect(204);
    await onSecond
      .post(SLOT_EVENTS_PATH)
      .send({ events: slotLoadEvents(SLOT, 20, 7) })
      .expect(204);
    // Each host's counts are in the database after its next write (at most flushMs later).
    await Promise.all(hosts.map((host) => host.app.slotEvents.aggregator.flush()));
    const payloads: SlotStatsPayload[] = [];
    for (const agent of [onFirst, onSecond]) {
      const response = await agent.get(`${SLOT_STATS_PATH}?window=5m`);
      expect([response.status, response.body]).toEqual([200, expect.anything()]);
      payloads.push(response.body as SlotStatsPayload);
    }
    return payloads;
  } finally {
    await closeTwoHosts(hosts);
  }
}

const SUMMED = expect.objectContaining({ ...SLOT, release: '1.0.0', loads: 50, failed: 10, failureRate: 0.2 });

describe('two hosts on one SQLite file', () => {
  it('show the sum of both hosts’ events on either host', async () => {
    for (const payload of await sumOfTwoHosts(OPTIONS)) expect(payload.stats).toEqual([SUMMED]);
  });
});

describe('an automatic rollback decided by one host', () => {
  it('is logged once and counted by every host, from the release snapshot', async () => {
    const lines: { msg: string }[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const hosts = await createTwoHosts(createTestApp, {
      ...OPTIONS,
      logger,
      env: { REMOTES_CONFIG: origin.remotesConfig },
    });
    try {
      const [first, second] = hosts;
      const operator = await publishAndActivate(first.app, 'team_billing', origin.url, ['1.0.0', '2.0.0']);
      await operator
        .post('/api/remotes/team_billing/canary')
        .send({ version: '2.0.0', percent: 0, tenants: ['acme'] })
        .expect(200);
      const seen = hosts.map(() => [] as string[]);
      hosts.forEach((host, index) =>
        host.app.slotEvents.rollbackObserver.onSeen((rollback) => seen[index]!.push(rollback.canary)),
      );
      // Both hosts have seen the canary running before it ends.
      await Promise.all(hosts.map((host) => host.app.releases.snapshot.refresh()));
      await Promise.all(hosts.map((host) => host.app.slotEvents.rollbackObserver.settled()));
      // The first host decides (as its canary watch would); the second only polls the snapshot.
      expect(await first.app.releases.service.autoRollback('team_billing', '2.0.0', 'failing for the test')).toBe(true);
      const until = Date.now() + 20_000;
      while (seen.some((told) => told.length === 0) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await Promise.all(hosts.map((host) => host.app.slotEvents.rollbackObserver.settled()));
      }
      expect(seen).toEqual([['2.0.0'], ['2.0.0']]);
      // More snapshot changes later tell nothing again.
      await operator.post('/api/remotes/team_billing/activate').send({ version: '1.0.0' });
      await Promise.all(hosts.map((host) => host.app.releases.snapshot.refresh()));
      await Promise.all(hosts.map((host) => host.app.slotEvents.rollbackObserver.settled()));
      expect(seen).toEqual([['2.0.0'], ['2.0.0']]);
      const told = lines.filter((line) =>
        line.msg.startsWith('CANARY ROLLBACK SEEN: remote "team_billing" canary 2.0.0'),
      );
      expect(told).toHaveLength(2);
      expect(told[0]?.msg).toContain('failing for the test');
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});

describeWithPostgres()('two hosts on one PostgreSQL', () => {
  // Generous limits: two CI runs under full load saw this suite's pools wait out 5 s for a connection, and the error
  // surfaced outside any test (its origin not found yet; see the closing note of 2026-11-23).
  const databases = usePostgresDatabases('slot_events_hosts', { poolSize: 8, statementTimeoutMs: 20_000 });

  it('show the sum of both hosts’ events on either host', async () => {
    const options = { ...OPTIONS, storage: await databases.create() };
    for (const payload of await sumOfTwoHosts(options)) expect(payload.stats).toEqual([SUMMED]);
  });
});
