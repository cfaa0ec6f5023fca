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
}

export type CanaryVerdict = { rollBack: false } | { rollBack: true; reason: string };

/** The one-sided 99 % critical value of the standard normal distribution. */
export const Z_99 = 2.326;

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
 * then ran until the outage left the window.
 */
export function canaryVerdict(
  versions: { canary: string; stable: string },
  evidence: CanaryEvidence,
  settings: Pick<CanaryRollbackSettings, 'minVisitors' | 'margin'>,
): CanaryVerdict {
  const { canary, stable } = evidence;
  if (canary.visitors < settings.minVisitors) return { rollBack: false };
  for (const [field, what] of [
    ['failed', ''],
    ['codeFailed', ' in its code (init, factory, render; its files loading left aside)'],
  ] as const) {
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
  return { rollBack: false };
}
