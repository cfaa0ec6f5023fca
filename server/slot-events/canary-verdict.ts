import type { CanaryRollbackSettings } from './slot-event-settings';

/** Distinct visitors of a release over some slots, and of them those who saw a failure (in its code, for the latter). */
export interface VisitorShare {
  visitors: number;
  failed: number;
  /** Who saw a failure once the release's files had loaded (init, factory, render): its code's, not its origin's. */
  codeFailed: number;
}

/** What a canary is judged on: its signed-in visitors, and the stable release's on the same slots. */
export interface CanaryEvidence {
  canary: VisitorShare;
  /**
   * The stable release's visitors of the slots the canary's visitors loaded, in the window or, when it had none
   * there (a canary at 100 % leaves it no visitor), over the last day. Zero visitors: the slots are new with the
   * canary, their failures its own.
   */
  stable: VisitorShare;
  /** The slot with the largest share of failing canary visitors, for the reason (`X at y (3 of 4 visitors failed)`). */
  worstSlot: string;
  /**
   * The same, slot by slot (each slot the canary's visitors loaded, against the stable release's visitors of that slot):
   * a slot failing for everyone on both releases makes every visitor of the remote a failing one, and the canary's
   * newly broken slot beside it would not move the remote's share at all.
   */
  slots: readonly SlotEvidence[];
}

/** One slot's visitors on each release: `slot` is `Component at location`. */
export interface SlotEvidence {
  slot: string;
  canary: VisitorShare;
  stable: VisitorShare;
}

export type CanaryVerdict = { rollBack: false } | { rollBack: true; reason: string };

/** The one-sided 99 % critical value of the standard normal distribution. */
export const Z_99 = 2.326;

/** The probability that a standard normal variable exceeds `z` (the complementary error function, to 1.2e-7). */
export function normalTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const poly = [
    -1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587, -0.82215223,
    0.17087277,
  ];
  const exponent = poly.reduceRight((sum, coefficient) => coefficient + t * sum, 0) - x * x;
  const erfc = t * Math.exp(exponent);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/** The `z` a standard normal variable exceeds with probability `alpha` (one-sided), by bisection of normalTail. */
export function criticalZ(alpha: number): number {
  let [low, high] = [0, 40];
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2;
    if (normalTail(middle) > alpha) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)} %`;

/**
 * The statistic of a one-sided two-proportion z-test of H0 "the canary's share of failing visitors exceeds the
 * stable release's by at most `margin`": (p1 - p2 - margin) / sqrt(v1 + v2), each variance v = q(1 - q) / n taken at
 * the Laplace-smoothed share q = (failed + 1) / (n + 2), so that 0 of 3 or 3 of 3 do not pass for certainty (a plain
 * Wald test calls 1 of 1 infinitely significant). A stable release of no visitor on these slots is taken as failing
 * none, without uncertainty of its own (v2 = 0).
 */
export function excessZ(
  canary: { visitors: number; failed: number },
  stable: { visitors: number; failed: number },
  margin: number,
): number {
  if (canary.visitors === 0) return 0;
  const share = (side: { visitors: number; failed: number }) => (side.visitors === 0 ? 0 : side.failed / side.visitors);
  const variance = (side: { visitors: number; failed: number }) => {
    if (side.visitors === 0) return 0;
    const smoothed = (side.failed + 1) / (side.visitors + 2);
    return (smoothed * (1 - smoothed)) / side.visitors;
  };
  return (share(canary) - share(stable) - margin) / Math.sqrt(variance(canary) + variance(stable));
}

/**
 * Whether a canary's signed-in visitors see failures clearly more often than the stable release's on the same slots.
 * Visitors, not events: one visitor sending 60 failures is one failing visitor, so no one member ends a canary alone,
 * and a page opened ten times weighs as one visitor. Needs `minVisitors` distinct visitors of the canary (fewer say
 * nothing); then rolled back when the one-sided test (excessZ) rejects "no more than `margin` worse" at 99 %
 * confidence (z >= 2.326), counting every failure, or counting only its code's (once its files had loaded): an
 * outage of the stable release's origin in the window raised its share above a canary throwing on every page, which
 * then ran until the outage left the window. Then slot by slot (slotVerdict): a slot failing on both releases hides
 * the remote's other slots from the first test.
 */
export function canaryVerdict(
  versions: { canary: string; stable: string },
  evidence: CanaryEvidence,
  settings: Pick<CanaryRollbackSettings, 'minVisitors' | 'margin'>,
): CanaryVerdict {
  if (evidence.canary.visitors < settings.minVisitors) return { rollBack: false };
  return wholeVerdict(versions, evidence, settings) ?? slotVerdict(versions, evidence, settings) ?? { rollBack: false };
}

const FAILURES = [
  ['failed', ''],
  ['codeFailed', ' in its code (init, factory, render; its files loading left aside)'],
] as const;

/** Every slot of the remote together: the canary's visitors who saw any failure against the stable release's. */
function wholeVerdict(
  versions: { canary: string; stable: string },
  evidence: CanaryEvidence,
  settings: Pick<CanaryRollbackSettings, 'minVisitors' | 'margin'>,
): CanaryVerdict | null {
  const { canary, stable } = evidence;
  for (const [field, what] of FAILURES) {
    const z = excessZ(
      { visitors: canary.visitors, failed: canary[field] },
      { visitors: stable.visitors, failed: stable[field] },
      settings.margin,
    );
    if (!(z >= Z_99)) continue;
    const stableShare = stable.visitors === 0 ? 0 : stable[field] / stable.visitors;
    const stableSaid =
      stable.visitors === 0
        ? 'stable ' + versions.stable + ' had no visitor of these slots (new with the canary)'
        : `stable ${versions.stable}: ${stable[field]} of ${stable.visitors} (${percent(stableShare)}) on the same slots`;
    return {
      rollBack: true,
      reason:
        `canary ${versions.canary}: ${canary[field]} of ${canary.visitors} visitors (${percent(canary[field] / canary.visitors)}) ` +
        `saw a failure${what}, where ${stableSaid}: more than ${(settings.margin * 100).toFixed(1)} points worse ` +
        `at 99 % confidence (z = ${z.toFixed(2)}); most of all ${evidence.worstSlot}`,
    };
  }
  return null;
}

/**
 * Slot by slot, those with `minVisitors` canary visitors or more, by the same test at 99 % confidence over all of
 * them (each at 1 % divided by their number, Bonferroni's correction: more slots judged give chance no more ways to
 * end a sound canary). The slot judged worst (the largest z beyond its critical value) is named.
 */
function slotVerdict(
  versions: { canary: string; stable: string },
  evidence: CanaryEvidence,
  settings: Pick<CanaryRollbackSettings, 'minVisitors' | 'margin'>,
): CanaryVerdict | null {
  const judged = evidence.slots.filter((slot) => slot.canary.visitors >= settings.minVisitors);
  if (judged.length === 0) return null;
  const critical = criticalZ(0.01 / judged.length);
  let worst: { slot: SlotEvidence; field: (typeof FAILURES)[number]; z: number } | null = null;
  for (const slot of judged) {
    for (const field of FAILURES) {
      const z = excessZ(
        { visitors: slot.canary.visitors, failed: slot.canary[field[0]] },
        { visitors: slot.stable.visitors, failed: slot.stable[field[0]] },
        settings.margin,
      );
      if (z >= critical && (worst === null || z > worst.z)) worst = { slot, field, z };
    }
  }
  if (worst === null) return null;
  const { slot, z } = worst;
  const [field, what] = worst.field;
  const stableSaid =
    slot.stable.visitors === 0
      ? `stable ${versions.stable} had no visitor of it (new with the canary)`
      : `stable ${versions.stable}: ${slot.stable[field]} of ${slot.stable.visitors} ` +
        `(${percent(slot.stable[field] / slot.stable.visitors)}) on it`;
  return {
    rollBack: true,
    reason:
      `canary ${versions.canary}: on ${slot.slot}, ${slot.canary[field]} of ${slot.canary.visitors} visitors ` +
      `(${percent(slot.canary[field] / slot.canary.visitors)}) saw a failure${what}, where ${stableSaid}: more than ` +
      `${(settings.margin * 100).toFixed(1)} points worse at 99 % confidence over the ${judged.length} ` +
      `${judged.length === 1 ? 'slot' : 'slots'} judged one by one (z = ${z.toFixed(2)}, beyond ${critical.toFixed(2)})`,
  };
}
