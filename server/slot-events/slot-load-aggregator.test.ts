/**
 * The aggregate stays bounded: a burst of 100 000 events over two days leaves at most ROWS_PER_KEY rows per key in
 * a real SQLite file, the rows waiting in memory never pass their bound, and each window sums only its own buckets.
 */
import { slotLoadEvents } from '../../testing/server/released-remote';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { MAX_VISITORS_PER_BUCKET, SlotLoadAggregator, type TaggedSlotLoadEvent } from './slot-load-aggregator';
import { ROWS_PER_KEY, SlotLoadStore } from './slot-load-store';
import { SlotVisitorStore } from './slot-visitor-store';

let testApp: TestApp;
let clock: number;
const now = () => clock;

beforeEach(async () => {
  testApp = await createTestApp({ slotEvents: { canary: { enabled: false } } });
  clock = Date.UTC(2026, 10, 23, 12, 0, 0);
});
afterEach(() => testApp.close());

/** Events of one component, `failing` of them failed, each from the visitor `visitorOf(index)` says. */
function tagged(
  component: string,
  count: number,
  failing = 0,
  visitorOf: (index: number) => string = () => 'one-visitor',
): TaggedSlotLoadEvent[] {
  return slotLoadEvents({ remote: 'team_billing', component, location: 'header-banner' }, count, failing).map(
    (event, index) => ({
      ...event,
      tenant: 'acme',
      release: '1.0.0',
      visitor: { audience: 'staff' as const, id: visitorOf(index) },
    }),
  );
}

it('keeps at most ROWS_PER_KEY rows per key under a burst of 100 000 events over two days', async () => {
  const store = new SlotLoadStore(testApp.app.storage);
  const aggregator = new SlotLoadAggregator({ store, flushMs: 1000, maxPendingRows: 10_000, now });
  const components = ['A', 'B', 'C', 'D'];
  const events = components.flatMap((component) => tagged(component, 25_000, 2_500));
  const twoDays = 2 * 24 * 3_600_000;
  const start = clock;
  for (let index = 0; index < events.length; index++) {
    clock = start + Math.floor((index * twoDays) / events.length);
    expect(aggregator.record(events[index] as TaggedSlotLoadEvent)).toBe(true);
    if (index % 500 === 499) await aggregator.flush();
  }
  await aggregator.close();
  expect(ROWS_PER_KEY).toBe(88);
  expect(await store.rowCount()).toBeLessThanOrEqual(components.length * ROWS_PER_KEY);
  expect(aggregator.snapshot()).toEqual(expect.objectContaining({ accepted: 100_000, dropped: 0, failedWrites: 0 }));
  // The day window holds the last 24 hours of the burst: about half of it.
  const day = (await aggregator.stats('1d')).stats;
  const dayLoads = day.reduce((sum, row) => sum + row.loads, 0);
  expect(dayLoads).toBeGreaterThan(48_000);
  expect(dayLoads).toBeLessThan(53_000);
});

it('drops (and counts) events of new keys once the rows waiting in memory are at their bound', async () => {
  const store = new SlotLoadStore(testApp.app.storage);
  const aggregator = new SlotLoadAggregator({ store, flushMs: 1000, maxPendingRows: 10, now });
  // Each key takes two rows (its minute and its hour): five keys fill the bound.
  for (const component of ['A', 'B', 'C', 'D', 'E']) expect(aggregator.record(tagged(component, 1)[0]!)).toBe(true);
  expect(aggregator.record(tagged('F', 1)[0]!)).toBe(false);
  expect(aggregator.record(tagged('A', 1)[0]!)).toBe(true);
  expect(aggregator.snapshot()).toEqual(expect.objectContaining({ accepted: 6, dropped: 1 }));
  await aggregator.flush();
  expect(aggregator.record(tagged('F', 1)[0]!)).toBe(true);
  await aggregator.close();
});

it('sums each window over its own buckets only', async () => {
  const store = new SlotLoadStore(testApp.app.storage);
  const aggregator = new SlotLoadAggregator({ store, flushMs: 1000, maxPendingRows: 100, now });
  for (const event of tagged('A', 10, 10)) aggregator.record(event);
  clock += 20 * 60_000;
  for (const event of tagged('A', 10)) aggregator.record(event);
  const loads = async (window: '5m' | '1h' | '1d') =>
    (await aggregator.stats(window)).stats.map((row) => [row.loads, row.failureRate]);
  expect(await loads('5m')).toEqual([[10, 0]]);
  expect(await loads('1h')).toEqual([[20, 0.5]]);
  expect(await loads('1d')).toEqual([[20, 0.5]]);
  clock += 2 * 3_600_000;
  expect(await loads('1h')).toEqual([]);
  expect(await loads('1d')).toEqual([[20, 0.5]]);
  await aggregator.close();
});

it('counts each visitor once per slot and bucket, and keeps at most MAX_VISITORS_PER_BUCKET of them per host', async () => {
  const store = new SlotLoadStore(testApp.app.storage);
  const visitorStore = new SlotVisitorStore(testApp.app.storage);
  const aggregator = new SlotLoadAggregator({ store, visitorStore, flushMs: 1000, maxPendingRows: 100, now });
  // One visitor sending 60 failures, then 5,000 visitors in the same minute.
  for (const event of tagged('A', 60, 60)) aggregator.record(event);
  for (const event of tagged('A', 5000, 0, (index) => `visitor-${index}`)) aggregator.record(event);
  await aggregator.flush();
  const [row] = (await aggregator.stats('5m')).stats;
  expect(row).toEqual(expect.objectContaining({ loads: 5060, failed: 60, failedVisitors: 1 }));
  expect(row?.visitors).toBe(MAX_VISITORS_PER_BUCKET);
  // The minute's and the hour's bucket each hold at most the bound; the others were counted, not kept.
  const rows = await testApp.app.storage.db
    .selectFrom('slot_load_visitors')
    .select((eb) => eb.fn.countAll<number>().as('rows'))
    .executeTakeFirstOrThrow();
  expect(Number(rows.rows)).toBe(2 * MAX_VISITORS_PER_BUCKET);
  expect(aggregator.snapshot().droppedVisitors).toBe(2 * (5001 - MAX_VISITORS_PER_BUCKET));
});
