import { useId, useRef, useState, type FormEvent } from 'react';
import type { CanaryRollout, RolloutPlan, RolloutPlanAction, RolloutStep, StartRolloutRequest } from '../../../shared';
import { useApiClient } from '../../core';
import { useUnsavedChanges } from '../../hooks/unsaved-changes';
import { useKeptOverSignIn, type FormNow } from './kept-release-forms';
import { ConfirmDialog, useConfirmDialog } from '../../layout/confirm-dialog';
import { remoteApiPath, replaceCanaryQuestion, type ApplyReleaseChange } from './release-change';

/** The shares as typed, split at commas, spaces and `%` (`5, 25, 50, 100`). */
function shareWords(text: string): string[] {
  return text.split(/[\s,%]+/).filter(Boolean);
}

/** Shares typed with commas or spaces between them (`5, 25, 50, 100`), as numbers; NaN where one is not a number. */
export function parseShares(text: string): number[] {
  return shareWords(text).map(Number);
}

/**
 * What is wrong with the shares as typed, in the words of the field, or null: a typo (`5O`) would otherwise reach the
 * server as `null` and come back as `steps[1].share … got null`, naming neither the field nor what was typed. The
 * server checks them again, and whatever else (a release, the minutes).
 */
export function sharesProblem(text: string): string | null {
  const words = shareWords(text);
  if (words.length === 0) return 'Give one share per step, the last 100.';
  const typo = words.find((word) => !/^\d{1,3}$/.test(word));
  if (typo !== undefined) return `"${typo}" is not a share: give whole numbers from 1 to 100.`;
  const shares = words.map(Number);
  for (const [index, share] of shares.entries()) {
    const before = shares[index - 1] ?? 0;
    if (share <= before || share > 100) {
      return `${share} must be above ${before === 0 ? '0' : `${before}, the share before it,`} and at most 100.`;
    }
  }
  return shares.at(-1) === 100 ? null : 'The last share is 100: the step that activates the release.';
}

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
  const visitors = step.visitors ? ` and ${step.visitors} visitors` : '';
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
  /** The canary running now, which a plan started replaces (asked first); null for none. */
  canary: CanaryRollout | null;
  apply: ApplyReleaseChange;
}

/**
 * A remote's progressive rollout: the plan with its steps and the one in force, Pause / Resume / Promote now /
 * Abort (each asked again in the app's confirm dialog, which opens on Cancel), and the form that starts a plan when
 * none runs. After an action the page moves the focus (the remote's heading, or its refusal).
 */
export function RolloutPlanPanel({ remote, plan, versions, mayChange, canary, apply }: RolloutPlanPanelProps) {
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
      send: () => client.post(remoteApiPath(remote, `rollouts/current/${action}`)),
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
            {new Date(plan.stepStartedAt).toLocaleString()}; started by {plan.startedBy}.
            {plan.reason && ` ${plan.reason}.`}
          </p>
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
      {mayChange && !live && <StartRolloutForm remote={remote} versions={versions} canary={canary} apply={apply} />}
    </div>
  );
}

interface StartRolloutFormProps {
  remote: string;
  versions: string[];
  canary: CanaryRollout | null;
  apply: ApplyReleaseChange;
}

const DEFAULT_SHARES = '5, 25, 50, 100';
const DEFAULT_MINUTES = '10';
const DEFAULT_VISITORS = '0';

/** Starts a plan: a release, its shares (the last 100), and each step's least minutes and visitors. */
function StartRolloutForm({ remote, versions, canary, apply }: StartRolloutFormProps) {
  const client = useApiClient();
  const id = useId();
  const [chosen, setVersion] = useState(versions[0] ?? '');
  const version = versions.includes(chosen) ? chosen : (versions[0] ?? '');
  const now = useRef<FormNow>({ typed: {}, unsaved: false });
  // What was typed when the session ended, given back after signing in again.
  const kept = useKeptOverSignIn('rollout', remote, now);
  const [shares, setShares] = useState(kept?.shares ?? DEFAULT_SHARES);
  const [minutes, setMinutes] = useState(kept?.minutes ?? DEFAULT_MINUTES);
  const [visitors, setVisitors] = useState(kept?.visitors ?? DEFAULT_VISITORS);
  // A plan typed and not started: leaving the page asks first, as a record form does.
  const unsaved =
    versions.length > 0 && (shares !== DEFAULT_SHARES || minutes !== DEFAULT_MINUTES || visitors !== DEFAULT_VISITORS);
  useUnsavedChanges(unsaved);
  now.current = { typed: { shares, minutes, visitors }, unsaved };
  const [problem, setProblem] = useState<string | null>(null);
  const sharesInput = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The shares are checked here first, the problem said at the field; the server checks the steps again and names
    // the one at fault, which the page shows in its words.
    const found = sharesProblem(shares);
    setProblem(found);
    if (found !== null) {
      sharesInput.current?.focus();
      return;
    }
    const request: StartRolloutRequest = {
      version,
      steps: parseShares(shares).map((share) => ({ share, minutes: Number(minutes), visitors: Number(visitors) })),
    };
    void apply({
      remote,
      send: () => client.post(remoteApiPath(remote, 'rollouts'), request),
      ...(canary
        ? {
            confirm: replaceCanaryQuestion(
              remote,
              canary,
              `a rollout of ${version} from ${request.steps[0]?.share ?? 0} %`,
            ),
          }
        : {}),
      done: `Rollout of ${remote} ${version} started at ${request.steps[0]?.share ?? 0} %.`,
    });
  };

  if (versions.length === 0) return <p className="muted">No other release to roll out.</p>;
  return (
    <form className="form field" aria-label={`Start a rollout of ${remote}`} onSubmit={submit}>
      <label className="field__label" htmlFor={`${id}v`}>
        Release to roll out
      </label>
      <select id={`${id}v`} className="input" value={version} onChange={(event) => setVersion(event.target.value)}>
        {versions.map((each) => (
          <option key={each}>{each}</option>
        ))}
      </select>
      <label className="field__label" htmlFor={`${id}s`}>
        Shares of users (%)
      </label>
      <input
        id={`${id}s`}
        ref={sharesInput}
        className="input"
        aria-invalid={problem !== null || undefined}
        aria-describedby={problem === null ? `${id}sh` : `${id}se ${id}sh`}
        value={shares}
        onChange={(event) => setShares(event.target.value)}
      />
      {problem !== null && (
        <p className="form-error" id={`${id}se`}>
          {problem}
        </p>
      )}
      <p className="field__help" id={`${id}sh`}>
        One share per step, rising, separated by commas; the last is 100 and activates the release.
      </p>
      <label className="field__label" htmlFor={`${id}m`}>
        Minutes per step (at least)
      </label>
      <input
        id={`${id}m`}
        className="input"
        type="number"
        min={0}
        max={10080}
        step="any"
        value={minutes}
        onChange={(event) => setMinutes(event.target.value)}
      />
      <label className="field__label" htmlFor={`${id}n`}>
        Visitors per step (at least)
      </label>
      <input
        id={`${id}n`}
        className="input"
        type="number"
        min={0}
        aria-describedby={`${id}nh`}
        value={visitors}
        onChange={(event) => setVisitors(event.target.value)}
      />
      <p className="field__help" id={`${id}nh`}>
        The server advances a step once its time is up, enough visitors saw the canary, and it is no worse than the
        stable release; it rolls the canary back when it is worse.
      </p>
      <p className="inline">
        <button type="submit" className="button button--primary">
          Start rollout
        </button>
      </p>
    </form>
  );
}
