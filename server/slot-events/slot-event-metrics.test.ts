/**
 * The slot loads visitors' browsers report, and the canaries, as GET /metrics gives them: counted per remote,
 * release and outcome when the events arrive, a running canary's share read when Prometheus scrapes.
 */
import { SLOT_EVENTS_PATH } from '../../shared';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import {
  publishAndActivate,
  placedSlotsOptions,
  slotLoadEvents,
  startDescriptorOrigin,
  type DescriptorOrigin,
} from '../../testing/server/released-remote';
import { createTestApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { DEPRECATED_DROPPED_GAUGE } from './slot-event-metrics';

const TOKEN = 'a-metrics-token-long-enough';
const SLOT = { remote: 'team_billing', component: 'InvoiceBanner', location: 'header-banner' };

let origin: DescriptorOrigin;
let testApp: TestApp;

beforeAll(async () => {
  origin = await startDescriptorOrigin({ name: 'team_billing', components: ['InvoiceBanner'] });
});
afterAll(() => origin.close());
afterEach(() => testApp.close());

it('counts the slot loads by remote, release and outcome, and shows a running canary until it ends', async () => {
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: origin.remotesConfig },
    metrics: { token: TOKEN },
    slotEvents: { canary: { enabled: false } },
    ...placedSlotsOptions([SLOT]),
  });
  await publishAndActivate(testApp.app, 'team_billing', origin.url, ['1.0.0', '2.0.0']);
  const operator = await signedInAgent(testApp.app, 'operator');
  await operator
    .post(SLOT_EVENTS_PATH)
    .send({ events: slotLoadEvents(SLOT, 10, 3) })
    .expect(204);
  await operator.post('/api/remotes/team_billing/canary').send({ version: '2.0.0', percent: 20 }).expect(200);
  // The snapshot every host reads follows the store within its poll.
  await testApp.app.releases.snapshot.refresh();

  const scrape = async () =>
    parsePrometheusText((await operator.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text);
  let families = await scrape();
  const loads = (outcome: string) =>
    sampleValue(families, 'slots_slot_loads_total', { remote: 'team_billing', release: '1.0.0', outcome });
  expect(loads('rendered')).toBe(7);
  expect(loads('failed')).toBe(3);
  expect(sampleValue(families, 'slots_slot_events_dropped_total')).toBe(0);
  expect(sampleValue(families, 'slots_canary_percent', { remote: 'team_billing', version: '2.0.0' })).toBe(20);
  // No automatic rollback yet (server/slot-events/canary-rollback.test.ts counts one), but the counters of a remote
  // with a canary are there at 0 from its first scrape: an alert's increase counts from a series' first sample.
  expect(sampleValue(families, 'slots_canary_auto_rollbacks_total', { remote: 'team_billing' })).toBe(0);
  expect(sampleValue(families, 'slots_canary_auto_rollbacks_seen_total', { remote: 'team_billing' })).toBe(0);

  await operator.post('/api/remotes/team_billing/rollback').send({ version: '1.0.0' }).expect(200);
  await testApp.app.releases.snapshot.refresh();
  families = await scrape();
  expect(() => sampleValue(families, 'slots_canary_percent', { remote: 'team_billing', version: '2.0.0' })).toThrow(
    /0 samples/,
  );
});

it('counts the events a host could not count in a counter, and in the deprecated gauge for one release', async () => {
  // One pending row at most: an event needs two (its minute and its hour), so every event is dropped.
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: origin.remotesConfig },
    metrics: { token: TOKEN },
    slotEvents: { canary: { enabled: false }, maxPendingRows: 1 },
    ...placedSlotsOptions([SLOT]),
  });
  await publishAndActivate(testApp.app, 'team_billing', origin.url, ['1.0.0']);
  const operator = await signedInAgent(testApp.app, 'operator');
  const scrape = async () =>
    parsePrometheusText((await operator.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text);

  expect(sampleValue(await scrape(), 'slots_slot_events_dropped_total')).toBe(0);
  for (const count of [4, 3]) {
    await operator
      .post(SLOT_EVENTS_PATH)
      .send({ events: slotLoadEvents(SLOT, count) })
      .expect(204);
  }
  const families = await scrape();
  // A counter (`_total`): Prometheus' rate() and increase() read it across a restart, which a gauge's they do not.
  expect(families.get('slots_slot_events_dropped_total')?.type).toBe('counter');
  expect(sampleValue(families, 'slots_slot_events_dropped_total')).toBe(7);
  expect(families.get(DEPRECATED_DROPPED_GAUGE)?.type).toBe('gauge');
  expect(families.get(DEPRECATED_DROPPED_GAUGE)?.help).toMatch(/^Deprecated: use slots_slot_events_dropped_total/);
  expect(sampleValue(families, DEPRECATED_DROPPED_GAUGE)).toBe(7);
  // Scraped again, the counter neither grows nor falls by itself.
  expect(sampleValue(await scrape(), 'slots_slot_events_dropped_total')).toBe(7);
});
