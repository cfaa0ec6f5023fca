import { useState } from 'react';
import type { AutomaticRollback, RemoteRollout, RolloutPlan, RolloutPlanAction, RolloutStep } from '../../../shared';
import { useApiClient } from '../../core';
import { ConfirmDialog, useConfirmDialog } from '../../layout/confirm-dialog';
import { InstantTime } from '../../text/instant-time';
import { countOf } from '../common/count-in-words';
import { rolloutPlanActionPath, type ApplyReleaseChange } from './release-change';
import { StartRolloutForm } from './start-rollout-form';

const STATES: Record<RolloutPlan['state'], string> = {
  running: 'running',
  paused: 'paused',
  done: 'done: the release was activated at its last step',
  promoted: 'promoted: the release was activated at once',
  aborted: 'aborted: everyone was given the stable release back',
  'rolled-back': 'rolled back automatically',
  stopped: 'stopped: the rollout was changed by other means',
};

/** `step 2 of 4 (25 %)`: where a plan stands, the same on its line and in its confirmations. */
export function describeStep(plan: Pick<RolloutPlan, 'steps' | 'step'>): string {
  return `step ${plan.step + 1} of ${plan.steps.length} (${plan.steps[plan.step]?.share ?? 0} %)`;
}

function describeStepRule(step: RolloutStep): string {
  const visitors = step.visitors ? ` and ${countOf(step.visitors, 'visitor')}` : '';
  return step.share === 100 ? '100 %: the release activated' : `${step.share} % for ${step.minutes} min${visitors}`;
}

/** What each action asks, its button, and what the page says once done. */
const ACTIONS: Record<RolloutPlanAction, { label: string; question: string; explains: string; done: string }> = {
  pause: {
    label: 'Pause',
    question: 'Pause the rollout of',
    explains: 'The canary keeps its share; the server does not advance the plan until it is resumed.',
    done: 'paused',
  },
  resume: {
    label: 'Resume',
    question: 'Resume the rollout of',
    explains: "The step's time starts again; the server advances the plan while the canary is no worse.",
    done: 'resumed',
  },
  promote: {
    label: 'Promote now',
    question: 'Activate now, for everyone,',
    explains: 'The release is activated at once for every user; the plan ends.',
    done: 'promoted: the release is active for everyone',
  },
  abort: {
    label: 'Abort',
    question: 'Abort the rollout of',
    explains: 'The canary ends: every user gets the stable release again; the plan ends.',
    done: 'aborted: everyone has the stable release again',
  },
};

export interface RolloutPlanPanelProps {
  remote: string;
  plan: RolloutPlan | null;
  /** The releases a plan may roll out (every one but the active), newest first. */
  versions: string[];
  /** Whether the user may change rollouts: the plan is shown either way. */
  mayChange: boolean;
  /** The rollout shown: its canary, which a plan started replaces (asked first), named when a plan is started. */
  rollout: RemoteRollout;
  /** The releases the server rolled back before, which the form that starts a plan warns of. */
  automaticRollbacks?: readonly AutomaticRollback[];
  apply: ApplyReleaseChange;
}

/**
 * A remote's progressive rollout: the plan with its steps and the one in force, Pause / Resume / Promote now /
 * Abort (each asked again in the app's confirm dialog, which opens on Cancel), and the form that starts a plan when
 * none runs. After an action the page moves the focus (the remote's heading, or its refusal).
 */
export function RolloutPlanPanel({
  remote,
  plan,
  versions,
  mayChange,
  rollout,
  automaticRollbacks,
  apply,
}: RolloutPlanPanelProps) {
  const client = useApiClient();
  const dialog = useConfirmDialog();
  const [asked, setAsked] = useState<RolloutPlanAction | null>(null);
  const live = plan !== null && (plan.state === 'running' || plan.state === 'paused');

  const ask = (action: RolloutPlanAction) => {
    setAsked(action);
    dialog.open();
  };
  const confirm = () => {
    if (asked === null || plan === null) return;
    const action = asked;
    dialog.close();
    void apply({
      remote,
      // The plan shown when confirmed (the question shows it as the page last read it).
      send: () => client.post(rolloutPlanActionPath(remote, action, plan)),
      done: `Rollout of ${remote} ${plan.version} ${ACTIONS[action].done}.`,
    });
  };

  return (
    <div data-rollout-plan={plan?.state ?? 'none'}>
      {plan === null ? (
        <p className="muted">No progressive rollout yet.</p>
      ) : (
        <>
          <p data-rollout-plan-state>
            {live ? 'Rollout' : 'Last rollout'} of {plan.version}: {STATES[plan.state]}, at {describeStep(plan)}, since{' '}
            <InstantTime at={plan.stepStartedAt} />; started by {plan.startedBy}.{plan.reason && ` ${plan.reason}.`}
          </p>
          {plan.state === 'running' && plan.waitingForVisitors && (
            // A step held for visitors looks stuck otherwise: its time may be long up.
            <p data-rollout-plan-waiting>
              Waiting for visitors: {plan.waitingForVisitors.visitors} of {plan.waitingForVisitors.needed} since the
              step began (the step&apos;s own count, or the canary watch&apos;s minimum when higher).
            </p>
          )}
          <ol className="steps" aria-label={`Steps of the rollout of ${remote} ${plan.version}`}>
            {plan.steps.map((step, index) => (
              <li key={index} aria-current={index === plan.step ? 'step' : undefined}>
                {describeStepRule(step)}
                {index === plan.step && ' (current)'}
              </li>
            ))}
          </ol>
        </>
      )}
      {mayChange && live && (
        <p className="inline">
          {plan.state === 'running' ? (
            <button type="button" className="button button--secondary" onClick={() => ask('pause')}>
              Pause
            </button>
          ) : (
            <button type="button" className="button button--secondary" onClick={() => ask('resume')}>
              Resume
            </button>
          )}
          <button type="button" className="button button--secondary" onClick={() => ask('promote')}>
            Promote now
          </button>
          <button type="button" className="button button--danger" onClick={() => ask('abort')}>
            Abort
          </button>
        </p>
      )}
      {plan !== null && (
        <ConfirmDialog
          control={dialog}
          title={asked ? `${ACTIONS[asked].question} ${remote} ${plan.version}?` : ''}
          confirmLabel={asked ? ACTIONS[asked].label : ''}
          onConfirm={confirm}
          onClose={() => setAsked(null)}
        >
          <p>
            {asked && ACTIONS[asked].explains} It stands at {describeStep(plan)}.
          </p>
        </ConfirmDialog>
      )}
      {mayChange && !live && (
        <StartRolloutForm
          remote={remote}
          versions={versions}
          rollout={rollout}
          automaticRollbacks={automaticRollbacks}
          apply={apply}
        />
      )}
    </div>
  );
}
