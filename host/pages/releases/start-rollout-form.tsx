import { useId, useRef, useState, type FormEvent } from 'react';
import type { AutomaticRollback, RemoteRollout, StartRolloutRequest } from '../../../shared';
import { useApiClient } from '../../core';
import { useUnsavedChanges } from '../../hooks/unsaved-changes';
import { useKeptOverSignIn, type FormNow } from './kept-release-forms';
import { canaryQuestion, remoteApiPath, type ApplyReleaseChange } from './release-change';
import { automaticRollbackOf } from './release-warnings';

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

export interface StartRolloutFormProps {
  remote: string;
  versions: string[];
  /**
   * The rollout shown: its canary, which the plan replaces (asked first), and what the start names, refused (409) once
   * another operator moved it, rather than replace a canary this operator was never shown.
   */
  rollout: RemoteRollout;
  /** The releases the server rolled back before: rolling one out again is asked first, saying so. */
  automaticRollbacks?: readonly AutomaticRollback[];
  apply: ApplyReleaseChange;
}

const DEFAULT_SHARES = '5, 25, 50, 100';
const DEFAULT_MINUTES = '10';
const DEFAULT_VISITORS = '0';

/** Starts a plan: a release, its shares (the last 100), and each step's least minutes and visitors. */
export function StartRolloutForm({ remote, versions, rollout, automaticRollbacks, apply }: StartRolloutFormProps) {
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
      send: () => client.post(remoteApiPath(remote, 'rollouts', rollout), request),
      // No plan is live while this form shows: none is stopped by it.
      ...canaryQuestion(remote, rollout.canary, `a rollout of ${version} from ${request.steps[0]?.share ?? 0} %`, {
        plan: null,
        rolledBack: automaticRollbackOf(automaticRollbacks, version),
      }),
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
        onChange={(event) => {
          setShares(event.target.value);
          // Once said, the problem follows the typing: a field mended while another stops the submit (the browser's
          // own check of the minutes) must not go on showing it.
          if (problem !== null) setProblem(sharesProblem(event.target.value));
        }}
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
