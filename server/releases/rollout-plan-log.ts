import type { Logger } from 'pino';
import type { ReleaseSnapshot } from './release-snapshot';

/**
 * Every host logs each change of a progressive rollout it sees in the rollouts it polls (a step, a pause, an end),
 * once, whichever host made it: an alert on the log does not depend on which host decided. What the host knew at
 * its start is taken as known, not logged.
 */
export function logRolloutPlansSeen(
  snapshot: Pick<ReleaseSnapshot, 'subscribe' | 'rolloutPlans'>,
  logger: Pick<Logger, 'info'>,
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
      if (before.get(plan.remote) === now.get(plan.remote)) continue;
      logger.info(
        { remote: plan.remote, version: plan.version, step: plan.step + 1, share: plan.share, state: plan.state },
        `rollout of "${plan.remote}" ${plan.version} seen ${plan.state} at step ${plan.step + 1} of ${plan.steps.length} (${plan.share} %)`,
      );
    }
  });
}
