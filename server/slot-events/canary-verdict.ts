import type { CanaryRollbackSettings } from './slot-event-settings';

/** The judged loads (not hidden) of one slot, a component at a location, and those that failed or timed out. */
export interface SlotLoads {
  location: string;
  component: string;
  loads: number;
  failures: number;
}

/**
 * One slot of the canary with what it is judged against: the stable release's loads of the same slot, in the window
 * compared or, when it had none there (a canary at 100 % leaves the stable release no visitor), over the last day.
 * Null when the stable release never loaded it: a slot new with the canary, whose failures are the canary's own.
 */
export interface JudgedSlot extends SlotLoads {
  stable: { loads: number; failures: number } | null;
}

export type CanaryVerdict = { rollBack: false } | { rollBack: true; reason: string };

const percent = (rate: number) => `${(rate * 100).toFixed(1)} %`;

/**
 * Whether a canary fails enough more often than its stable release to be rolled back. It needs `minLoads` judged
 * loads in the window (fewer say nothing). Its failure rate is compared with the stable release's on the same slots,
 * weighted as the canary's loads are: what the canary's visitors would have seen on the stable release. A pooled rate
 * per release would compare the pages each group happened to open (the canary's visitors on a page whose slot fails
 * on both releases made an unchanged canary look worse). Rolled back when above it by more than `margin`.
 */
export function canaryVerdict(
  versions: { canary: string; stable: string },
  slots: readonly JudgedSlot[],
  settings: Pick<CanaryRollbackSettings, 'minLoads' | 'margin'>,
): CanaryVerdict {
  const loads = slots.reduce((sum, slot) => sum + slot.loads, 0);
  if (loads < settings.minLoads) return { rollBack: false };
  const failures = slots.reduce((sum, slot) => sum + slot.failures, 0);
  const expected = slots.reduce((sum, slot) => sum + slot.loads * stableRate(slot), 0);
  const canaryRate = failures / loads;
  const stableRateOnThem = expected / loads;
  if (canaryRate - stableRateOnThem <= settings.margin) return { rollBack: false };
  const stableLoads = slots.reduce((sum, slot) => sum + (slot.stable?.loads ?? 0), 0);
  return {
    rollBack: true,
    reason:
      `canary ${versions.canary} failed ${percent(canaryRate)} of ${loads} loads, where stable ${versions.stable} ` +
      `fails ${percent(stableRateOnThem)} on the same slots (${stableLoads} loads): more than ` +
      `${(settings.margin * 100).toFixed(1)} points worse; most of all ${worstSlot(slots)}`,
  };
}

function stableRate(slot: JudgedSlot): number {
  return slot.stable === null || slot.stable.loads === 0 ? 0 : slot.stable.failures / slot.stable.loads;
}

/** `InvoiceBanner at header-banner (30 of 50 failed, stable 1.0 %)`: the slot adding the most failures. */
function worstSlot(slots: readonly JudgedSlot[]): string {
  const excess = (slot: JudgedSlot) => slot.failures - slot.loads * stableRate(slot);
  const worst = slots.reduce((a, b) => (excess(b) > excess(a) ? b : a));
  const stable = worst.stable === null ? 'new with the canary' : `stable ${percent(stableRate(worst))}`;
  return `${worst.component} at ${worst.location} (${worst.failures} of ${worst.loads} failed, ${stable})`;
}
