import { SLOT_LOAD_DELIVERY_PHASES, SLOT_LOAD_PHASES, type SlotLoadEvent, type SlotLoadStats } from '../../shared';
import { LOAD_MS_COLUMNS, loadMsBucket, loadMsQuantile } from './load-histogram';

/** The counted columns of a `slot_load_stats` row, in one fixed order (outcomes, phases, load-time buckets). */
export const COUNT_COLUMNS = [
  'rendered',
  'failed',
  'timed_out',
  'hidden',
  'phase_manifest',
  'phase_entry',
  'phase_init',
  'phase_factory',
  'phase_render',
  'phase_load',
  ...LOAD_MS_COLUMNS,
] as const;

export type CountColumn = (typeof COUNT_COLUMNS)[number];

/** What a row is counted under: a remote release at one location and component. */
export interface SlotLoadKey {
  remote: string;
  /** '' when the remote has no release in force (served as configured). */
  release: string;
  location: string;
  component: string;
}

const OUTCOME_COLUMN = { rendered: 0, failed: 1, 'timed-out': 2, hidden: 3 } as const;
const FIRST_PHASE = 4;
const FIRST_MS = FIRST_PHASE + SLOT_LOAD_PHASES.length;

/** A new, empty set of counts (one number per COUNT_COLUMNS entry). */
export function emptyCounts(): number[] {
  return COUNT_COLUMNS.map(() => 0);
}

/**
 * Adds one event to `counts`: its outcome, its failed phase, and its load time (hidden slots have none). A failure
 * after the render takes the place of the render counted for that load: one render less (a count of a minute may so
 * go below zero when the render was counted the minute before; windows sum them), no second load time.
 */
export function countEvent(counts: number[], event: SlotLoadEvent): void {
  if (event.afterRender) {
    counts[OUTCOME_COLUMN.rendered]! -= 1;
    counts[OUTCOME_COLUMN.failed]! += 1;
    counts[FIRST_PHASE + SLOT_LOAD_PHASES.indexOf('render')]! += 1;
    return;
  }
  counts[OUTCOME_COLUMN[event.outcome]]! += 1;
  if (event.phase !== null && event.outcome !== 'rendered' && event.outcome !== 'hidden') {
    counts[FIRST_PHASE + SLOT_LOAD_PHASES.indexOf(event.phase)]! += 1;
  }
  if (event.outcome !== 'hidden') counts[FIRST_MS + loadMsBucket(event.loadMs)]! += 1;
}

/** Adds `more` into `counts`. */
export function addCounts(counts: number[], more: readonly number[]): void {
  for (let index = 0; index < counts.length; index++) counts[index]! += more[index] ?? 0;
}

/**
 * The loads that rendered or failed in summed counts (a hidden slot is neither): what failure rates are judged on,
 * by the stats and by the canary watch alike.
 */
export function judgedLoadsOf(counts: readonly number[]): { rendered: number; failures: number; judged: number } {
  const [counted = 0, failed = 0, timedOut = 0] = counts;
  // Below zero only for a window that holds a late failure but not the render it replaced (counted just before it).
  const rendered = Math.max(0, counted);
  return { rendered, failures: failed + timedOut, judged: rendered + failed + timedOut };
}

/**
 * Of the failures in summed counts, those once the release's files had loaded: all but the manifest's, the entry's
 * and those of files that did not arrive (`load`: an origin down or slow, a network failing), which say more of the
 * origin than of the code.
 */
export function codeFailuresOf(counts: readonly number[]): number {
  const { failures } = judgedLoadsOf(counts);
  const delivery = SLOT_LOAD_DELIVERY_PHASES.reduce(
    (sum, name) => sum + (counts[FIRST_PHASE + SLOT_LOAD_PHASES.indexOf(name)] ?? 0),
    0,
  );
  return Math.max(0, failures - delivery);
}

/** Whether one event is a failure of the release's code (failed or timed out, in no delivery phase). */
export function isCodeFailure(event: SlotLoadEvent): boolean {
  if (event.outcome !== 'failed' && event.outcome !== 'timed-out') return false;
  return event.phase === null || !SLOT_LOAD_DELIVERY_PHASES.includes(event.phase);
}

/** Distinct visitors of a key over a window, and those who saw a failure. */
export interface VisitorCounts {
  visitors: number;
  failedVisitors: number;
}

/** The statistics of a key from its summed counts and its distinct visitors. */
export function statsOf(
  key: SlotLoadKey,
  counts: readonly number[],
  visitors: VisitorCounts = { visitors: 0, failedVisitors: 0 },
): SlotLoadStats {
  const [, failed = 0, timedOut = 0, hidden = 0] = counts;
  const { rendered, failures, judged } = judgedLoadsOf(counts);
  const times = counts.slice(FIRST_MS);
  return {
    ...key,
    loads: judged + hidden,
    rendered,
    failed,
    timedOut,
    hidden,
    failureRate: judged === 0 ? null : failures / judged,
    p50Ms: loadMsQuantile(times, 0.5),
    p95Ms: loadMsQuantile(times, 0.95),
    phases: Object.fromEntries(
      SLOT_LOAD_PHASES.map((phase, index) => [phase, counts[FIRST_PHASE + index] ?? 0]),
    ) as SlotLoadStats['phases'],
    visitors: visitors.visitors,
    failedVisitors: visitors.failedVisitors,
  };
}
