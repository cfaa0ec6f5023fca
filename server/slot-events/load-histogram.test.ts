import { LOAD_MS_COLUMNS, loadMsBucket, loadMsQuantile } from './load-histogram';

it('puts each load time in the first bucket whose edge it does not pass', () => {
  expect([0, 100, 101, 999, 1000, 10_000, 10_001].map(loadMsBucket)).toEqual([0, 0, 1, 3, 3, 6, 7]);
  expect(LOAD_MS_COLUMNS).toHaveLength(8);
});

it('estimates a quantile inside its bucket, and says nothing without loads', () => {
  expect(loadMsQuantile([0, 0, 0, 0, 0, 0, 0, 0], 0.95)).toBeNull();
  // 100 loads in (250, 500]: p95 at 95 % of the way through that bucket.
  expect(loadMsQuantile([0, 0, 100, 0, 0, 0, 0, 0], 0.95)).toBe(488);
  // 90 fast, 10 slow: p95 falls among the slow ones.
  expect(loadMsQuantile([90, 0, 0, 0, 10, 0, 0, 0], 0.95)).toBe(1750);
  expect(loadMsQuantile([0, 0, 0, 0, 0, 0, 0, 5], 0.5)).toBe(10_000);
});
