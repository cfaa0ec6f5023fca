import { useId, useRef, useState, type FormEvent } from 'react';
import type { AutomaticRollback, CanaryRequest, RemoteRollout, RolloutPlan } from '../../../shared';
import { useApiClient } from '../../core';
import { useUnsavedChanges } from '../../hooks/unsaved-changes';
import { useKeptOverSignIn, type FormNow } from './kept-release-forms';
import { canaryQuestion, describeCanary, remoteApiPath, type ApplyReleaseChange } from './release-change';
import { automaticRollbackOf } from './release-warnings';

/**
 * Said beside the share and the tenants while the server's refusal of a canary of nobody applies to them (the page's
 * alert says the server's words): both fields are described by it and marked invalid until either is changed.
 */
export const CANARY_OF_NOBODY_FIELDS =
  'Give a share above 0 % or at least one tenant: as they are, the canary reaches nobody.';

/** Tenant ids typed with commas or spaces between them. */
export function parseTenants(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

export interface CanaryFormProps {
  remote: string;
  /** The releases a canary may give (every one but the active), newest first. */
  versions: string[];
  /** The rollout shown: its canary is the one the form replaces or ends, and a change names it (refused once moved). */
  rollout: RemoteRollout;
  /** The remote's plan: a live one is stopped by any canary given here, which the question says. */
  plan?: RolloutPlan | null;
  /** The releases the server rolled back before: giving one again is asked first, saying so. */
  automaticRollbacks?: readonly AutomaticRollback[];
  apply: ApplyReleaseChange;
  /** The share or the tenants were edited: a refusal shown for the last try no longer applies. */
  onEdit?: () => void;
}

/**
 * Gives a release to a share of the users (sticky per user) and to named tenants; ends a running canary. The
 * browser checks the share's range; the server refuses a canary of nobody (0 % and no tenant), or of a tenant that
 * does not exist, with its message, which the page shows (and focuses): the form then marks the fields the refusal
 * names (its `fields`) as what to correct, until they change.
 */
export function CanaryForm({
  remote,
  versions,
  rollout,
  plan = null,
  automaticRollbacks,
  apply,
  onEdit,
}: CanaryFormProps) {
  const { canary } = rollout;
  const client = useApiClient();
  const id = useId();
  const [chosen, setVersion] = useState(canary?.version ?? versions[0] ?? '');
  // The choice may have become the active release since (the list is reloaded after each change): then the newest.
  const version = versions.includes(chosen) ? chosen : (versions[0] ?? '');
  const now = useRef<FormNow>({ typed: {}, unsaved: false });
  // What was typed when the session ended, given back after signing in again.
  const kept = useKeptOverSignIn('canary', remote, now);
  const shown = { percent: String(canary?.percent ?? 10), tenants: canary?.tenants.join(', ') ?? '' };
  const [percent, setPercent] = useState(kept?.percent ?? shown.percent);
  const [tenants, setTenants] = useState(kept?.tenants ?? shown.tenants);
  // The fields the server's last refusal named, with why, and the share and tenants as they were typed then: it
  // applies while they are so (a canary of nobody names both; an unknown tenant, the tenants).
  const [refused, setRefused] = useState<{ typed: string; fields: Readonly<Record<string, string>> } | null>(null);
  const typed = `${percent}\n${tenants}`;
  const atFault = refused?.typed === typed ? refused.fields : {};
  const nobody = atFault.percent !== undefined && atFault.tenants !== undefined;
  const tenantsProblem = nobody ? undefined : atFault.tenants;
  // A share or tenants typed and not given yet (the form's first values, or the last it gave): leaving the page asks
  // first, as a record form does.
  const [given, setGiven] = useState(`${shown.percent}\n${shown.tenants}`);
  const unsaved = versions.length > 0 && typed !== given;
  useUnsavedChanges(unsaved);
  now.current = { typed: { percent, tenants }, unsaved };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request: Required<CanaryRequest> = { version, percent: Number(percent), tenants: parseTenants(tenants) };
    void apply({
      remote,
      send: () => client.post(remoteApiPath(remote, 'canary', rollout), request),
      // A running canary is replaced whole (its share and its tenants), a live plan stopped, and a release the server
      // rolled back given again: asked first, as an activation is.
      ...canaryQuestion(remote, canary, describeCanary(request), {
        plan,
        rolledBack: automaticRollbackOf(automaticRollbacks, version),
      }),
      done: `Canary of ${remote}: ${describeCanary(request)}.`,
      onRefused: (refusal) => setRefused({ typed, fields: refusal.fields }),
    }).then((accepted) => {
      if (!accepted) return;
      setRefused(null);
      setGiven(typed);
    });
  };
  /** A field's description: its help, and while a refusal of it applies the refusal first. */
  const describedBy = (help: string, problem: boolean, problemId = `${id}e`) =>
    problem ? `${problemId} ${help}` : help;

  if (versions.length === 0) return <p className="muted">No other release to give as a canary.</p>;
  return (
    <form className="form field" aria-label={`Canary of ${remote}`} onSubmit={submit}>
      <label className="field__label" htmlFor={`${id}v`}>
        Canary version
      </label>
      <select id={`${id}v`} className="input" value={version} onChange={(event) => setVersion(event.target.value)}>
        {versions.map((each) => (
          <option key={each}>{each}</option>
        ))}
      </select>
      <label className="field__label" htmlFor={`${id}p`}>
        Share of users (%)
      </label>
      <input
        id={`${id}p`}
        className="input"
        type="number"
        min={0}
        max={100}
        aria-invalid={nobody || undefined}
        aria-describedby={describedBy(`${id}ph`, nobody)}
        value={percent}
        onChange={(event) => {
          setPercent(event.target.value);
          onEdit?.();
        }}
      />
      <p className="field__help" id={`${id}ph`}>
        Left empty: none, only the tenants below.
      </p>
      <label className="field__label" htmlFor={`${id}t`}>
        Tenants
      </label>
      <input
        id={`${id}t`}
        className="input"
        aria-invalid={nobody || tenantsProblem !== undefined || undefined}
        aria-describedby={describedBy(`${id}h`, nobody || tenantsProblem !== undefined, nobody ? `${id}e` : `${id}te`)}
        value={tenants}
        onChange={(event) => {
          setTenants(event.target.value);
          onEdit?.();
        }}
      />
      <p className="field__help" id={`${id}h`}>
        Tenant ids, separated by commas: all their users get the canary.
      </p>
      {tenantsProblem !== undefined && (
        <p className="field__error" id={`${id}te`}>
          {tenantsProblem}
        </p>
      )}
      {nobody && (
        <p className="field__error" id={`${id}e`}>
          {CANARY_OF_NOBODY_FIELDS}
        </p>
      )}
      <p className="inline">
        <button type="submit" className="button button--primary">
          Start canary
        </button>
        {canary && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() =>
              void apply({
                remote,
                send: () => client.delete(remoteApiPath(remote, 'canary', rollout)),
                done: `Canary of ${remote} ended.`,
              })
            }
          >
            End canary
          </button>
        )}
      </p>
    </form>
  );
}
