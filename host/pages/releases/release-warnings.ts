import type { AutomaticRollback, RolloutPlan } from '../../../shared';
import { instantInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';

/** Whether `plan` still moves the rollout (running, or paused at its step): any other change of the canary stops it. */
export function planIsLive(plan: RolloutPlan | null): plan is RolloutPlan {
  return plan !== null && (plan.state === 'running' || plan.state === 'paused');
}

/**
 * Said in the question before a change of the rollout (an activation, a rollback, a canary, the own build) while a
 * plan is live: the server stops a plan whose canary an operator changed, and a stopped plan is never resumed, so the
 * operator must know the rollout they chose to grow ends with it. Empty without a live plan.
 */
export function planStopsWarning(plan: RolloutPlan | null): string {
  if (!planIsLive(plan)) return '';
  const share = plan.steps[plan.step]?.share ?? 0;
  return (
    ` This also stops the progressive rollout of ${plan.version} (${plan.state} at step ${plan.step + 1} of ` +
    `${plan.steps.length}, ${share} %) for good: start a new one to go on.`
  );
}

/** The last automatic rollback of `version` among a remote's (GET /api/remotes/releases), if it was ever rolled back. */
export function automaticRollbackOf(
  rollbacks: readonly AutomaticRollback[] | undefined,
  version: string,
): AutomaticRollback | undefined {
  return rollbacks?.find((rollback) => rollback.version === version);
}

/** A release's state once the server rolled its canary back: when, and what its visitors saw (as audited). */
export function rolledBackState(rollback: AutomaticRollback): string {
  const why = rollback.reason ? `: ${rollback.reason}` : '';
  return `Rolled back automatically on ${instantInWords(rollback.at, readerLocales())}${why}`;
}

/**
 * Said in the question before a release is put in force again (activated, rolled back to, a canary, a rollout) when
 * the server rolled it back before: its failures may come back for its visitors. Empty when it never was.
 */
export function rolledBackWarning(rollback: AutomaticRollback | undefined): string {
  if (rollback === undefined) return '';
  return ` Careful: ${rollback.version} failed its visitors before. ${rolledBackState(rollback)}.`;
}
