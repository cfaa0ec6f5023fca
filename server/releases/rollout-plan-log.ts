import type { Logger } from 'pino';
import type { ReleaseSnapshot } from './release-snapshot';
import type { StoredRolloutPlan } from './rollout-plan-store';

/**
 * Every host logs each change of a progressive rollout it sees in the rollouts it polls (a step, a pause, an end),
 * once, whichever host made it: an alert on the log does not depend on which host decided. What the host knew at
 * its start is taken as known, not logged. A change this host made and logged itself, with who made it
 * (`madeHere`: RolloutPlans.madeHere), is not logged again as seen: its maker's log had each change twice.
 */
export function logRolloutPlansSeen(
  snapshot: Pick<ReleaseSnapshot, 'subscribe' | 'rolloutPlans'>,
  logger: Pick<Logger, 'info'>,
  madeHere: (plan: StoredRolloutPlan) => boolean = () => false,
): void {
  let seen: Map<string, string> | null = null;
  snapshot.subscribe(() => {
    const now = new Map(
      snapshot.rolloutPlans().map((plan) => [plan.remote, `${plan.version} ${plan.state} ${plan.step}`] as const),
    );
    const before = seen;
    seen = now;
    if (before === null) return;
    for (const plan of snapshot.rolloutPlans()) {
      if (before.get(plan.remote) === now.get(plan.remote) || madeHere(plan)) continue;
      logger.info(
        { remote: plan.remote, version: plan.version, step: plan.step + 1, share: plan.share, state: plan.state },
        `rollout of "${plan.remote}" ${plan.version} seen ${plan.state} at step ${plan.step + 1} of ${plan.steps.length} (${plan.share} %)`,
      );
    }
  });
}
