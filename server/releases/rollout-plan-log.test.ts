import type { RolloutPlan } from '../../shared';
import { logRolloutPlansSeen } from './rollout-plan-log';

function plan(step: number, state: RolloutPlan['state'] = 'running'): RolloutPlan & { revision: number } {
  const steps = [
    { share: 5, minutes: 10, visitors: 0 },
    { share: 50, minutes: 10, visitors: 0 },
    { share: 100, minutes: 0, visitors: 0 },
  ];
  return {
    remote: 'team_billing',
    version: '2.0.0',
    steps,
    step,
    share: steps[step]!.share,
    state,
    stepStartedAt: '2026-11-25T00:00:00.000Z',
    startedBy: 'operator',
    startedAt: '2026-11-25T00:00:00.000Z',
    reason: null,
    revision: step + 1,
  };
}

it('logs each change of a plan it sees once, whichever host made it, and not what it knew at its start', () => {
  let listener = () => undefined as void;
  let plans = [plan(0)];
  const snapshot = { subscribe: (next: () => void) => ((listener = next), () => undefined), rolloutPlans: () => plans };
  const lines: string[] = [];
  logRolloutPlansSeen(snapshot, { info: (_fields: object, message: string) => lines.push(message) } as never);

  listener(); // the start's read: known, not logged
  listener(); // nothing changed
  plans = [plan(1)];
  listener();
  listener(); // the same step seen again
  plans = [plan(1, 'paused')];
  listener();

  expect(lines).toEqual([
    'rollout of "team_billing" 2.0.0 seen running at step 2 of 3 (50 %)',
    'rollout of "team_billing" 2.0.0 seen paused at step 2 of 3 (50 %)',
  ]);
});
