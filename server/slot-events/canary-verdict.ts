import type { CanaryRollbackSettings } from './slot-event-settings';

/** The judged loads (not hidden) of one slot, a component at a location, and those that failed or timed out. */
export interface SlotLoads {
  location: string;
  component: string;
  loads: number;
  failures: number;
  /**
   * Of the failures, those once the release's files had loaded (init, factory, render, or no phase): its code's own,
   * not its origin's. A manifest or entry that did not load (an origin down or slow) is the other kind.
   */
  codeFailures: number;
}

/**
 * One slot of the canary with what it is judged against: the stable release's loads of the same slot, in the window
 * compared or, when it had none there (a canary at 100 % leaves the stable release no visitor), over the last day.
 * Null when the stable release never loaded it: a slot new with the canary, whose failures are the canary's own.
 */
export interface JudgedSlot extends SlotLoads {
  stable: Pick<SlotLoads, 'loads' | 'failures' | 'codeFailures'> | null;
}

export type CanaryVerdict = { rollBack: false } | { rollBack: true; reason: string };

type Failures = (loads: Pick<SlotLoads, 'failures' | 'codeFailures'>) => number;

const ALL_FAILURES: Failures = (loads) => loads.failures;
const CODE_FAILURES: Failures = (loads) => Math.min(loads.codeFailures, loads.failures);

const percent = (rate: number) => `${(rate * 100).toFixed(1)} %`;

/**
 * Whether a canary fails enough more often than its stable release to be rolled back. It needs `minLoads` judged
 * loads in the window (fewer say nothing). Its failure rate is compared with the stable release's on the same slots,
 * weighted as the canary's loads are: what the canary's visitors would have seen on the stable release. A pooled rate
 * per release would compare the pages each group happened to open (the canary's visitors on a page whose slot fails
 * on both releases made an unchanged canary look worse). Rolled back when above it by more than `margin`, counting
 * every failure, or counting only its code's (once its files had loaded): an outage of the stable release's origin
 * in the window (its manifest failing for a minute) raised its rate above a canary throwing on every page, which
 * then ran until the outage left the window.
 */
export function canaryVerdict(
  versions: { canary: string; stable: string },
  slots: readonly JudgedSlot[],
  settings: Pick<CanaryRollbackSettings, 'minLoads' | 'margin'>,
): CanaryVerdict {
  const loads = slots.reduce((sum, slot) => sum + slot.loads, 0);
  if (loads < settings.minLoads) return { rollBack: false };
  for (const [failuresOf, what] of [
    [ALL_FAILURES, ''],
    [CODE_FAILURES, ' in its code (init, factory, render; its files loading left aside)'],
  ] as const) {
    const failures = slots.reduce((sum, slot) => sum + failuresOf(slot), 0);
    const expected = slots.reduce((sum, slot) => sum + slot.loads * stableRate(slot, failuresOf), 0);
    const canaryRate = failures / loads;
    const stableRateOnThem = expected / loads;
    if (canaryRate - stableRateOnThem <= settings.margin) continue;
    const stableLoads = slots.reduce((sum, slot) => sum + (slot.stable?.loads ?? 0), 0);
    return {
      rollBack: true,
      reason:
        `canary ${versions.canary} failed ${percent(canaryRate)} of ${loads} loads${what}, where stable ` +
        `${versions.stable} fails ${percent(stableRateOnThem)} on the same slots (${stableLoads} loads): more than ` +
        `${(settings.margin * 100).toFixed(1)} points worse; most of all ${worstSlot(slots, failuresOf)}`,
    };
  }
  return { rollBack: false };
}

function stableRate(slot: JudgedSlot, failuresOf: Failures): number {
  return slot.stable === null || slot.stable.loads === 0 ? 0 : failuresOf(slot.stable) / slot.stable.loads;
}

/** `InvoiceBanner at header-banner (30 of 50 failed, stable 1.0 %)`: the slot adding the most failures. */
function worstSlot(slots: readonly JudgedSlot[], failuresOf: Failures): string {
  const excess = (slot: JudgedSlot) => failuresOf(slot) - slot.loads * stableRate(slot, failuresOf);
  const worst = slots.reduce((a, b) => (excess(b) > excess(a) ? b : a));
  const stable = worst.stable === null ? 'new with the canary' : `stable ${percent(stableRate(worst, failuresOf))}`;
  return `${worst.component} at ${worst.location} (${failuresOf(worst)} of ${worst.loads} failed, ${stable})`;
}
