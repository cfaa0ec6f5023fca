import type { SlotLoadEvent } from '../../shared';
import { codeFailuresOf, countEvent, emptyCounts, judgedLoadsOf, statsOf } from './slot-load-counts';

const KEY = { remote: 'team_a', release: '1.0.0', location: 'header-banner', component: 'A' };
const rendered: SlotLoadEvent = { ...KEY, outcome: 'rendered', phase: null, kind: null, loadMs: 120, startMs: 10 };
const lateFailure: SlotLoadEvent = {
  ...rendered,
  outcome: 'failed',
  phase: 'render',
  kind: 'render-error',
  afterRender: true,
};

it('counts a failure after the render in place of that render, with no second load time', () => {
  const counts = emptyCounts();
  countEvent(counts, rendered);
  countEvent(counts, rendered);
  countEvent(counts, lateFailure);
  expect(judgedLoadsOf(counts)).toEqual({ rendered: 1, failures: 1, judged: 2 });
  expect(statsOf(KEY, counts)).toMatchObject({ loads: 2, rendered: 1, failed: 1, failureRate: 0.5 });
  expect(statsOf(KEY, counts).phases.render).toBe(1);
});

it('never judges below zero renders: a window holding a late failure but not the render it replaced', () => {
  const counts = emptyCounts();
  countEvent(counts, lateFailure);
  expect(judgedLoadsOf(counts)).toEqual({ rendered: 0, failures: 1, judged: 1 });
  expect(statsOf(KEY, counts)).toMatchObject({ loads: 1, rendered: 0, failed: 1, failureRate: 1 });
});

it('tells the failures of a release’s code from those of its files not loading (manifest, entry)', () => {
  const counts = emptyCounts();
  countEvent(counts, rendered);
  countEvent(counts, lateFailure);
  countEvent(counts, { ...rendered, outcome: 'failed', phase: 'manifest', kind: 'network', loadMs: 30 });
  countEvent(counts, { ...rendered, outcome: 'timed-out', phase: 'entry', kind: 'timeout', loadMs: 5000 });
  countEvent(counts, { ...rendered, outcome: 'failed', phase: 'factory', kind: 'no-component', loadMs: 80 });
  expect(judgedLoadsOf(counts)).toEqual({ rendered: 0, failures: 4, judged: 4 });
  expect(codeFailuresOf(counts)).toBe(2);
});
