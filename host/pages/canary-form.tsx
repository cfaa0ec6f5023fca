import { useId, useState, type FormEvent } from 'react';
import type { CanaryRequest, CanaryRollout } from '../../shared';
import { useApiClient } from '../core';
import { describeCanary, remoteApiPath, type ApplyReleaseChange } from './release-change';

/** Tenant ids typed with commas or spaces between them. */
export function parseTenants(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

export interface CanaryFormProps {
  remote: string;
  /** The releases a canary may give (every one but the active), newest first. */
  versions: string[];
  canary: CanaryRollout | null;
  apply: ApplyReleaseChange;
}

/**
 * Gives a release to a share of the users (sticky per user) and to named tenants; ends a running canary. The
 * browser checks the share's range; the server refuses a canary of nobody (0 % and no tenant) with its message.
 */
export function CanaryForm({ remote, versions, canary, apply }: CanaryFormProps) {
  const client = useApiClient();
  const id = useId();
  const [chosen, setVersion] = useState(canary?.version ?? versions[0] ?? '');
  // The choice may have become the active release since (the list is reloaded after each change): then the newest.
  const version = versions.includes(chosen) ? chosen : (versions[0] ?? '');
  const [percent, setPercent] = useState(String(canary?.percent ?? 10));
  const [tenants, setTenants] = useState(canary?.tenants.join(', ') ?? '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request: Required<CanaryRequest> = { version, percent: Number(percent), tenants: parseTenants(tenants) };
    void apply({
      remote,
      send: () => client.post(remoteApiPath(remote, 'canary'), request),
      done: `Canary of ${remote}: ${describeCanary(request)}.`,
    });
  };

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
        aria-describedby={`${id}ph`}
        value={percent}
        onChange={(event) => setPercent(event.target.value)}
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
        aria-describedby={`${id}h`}
        value={tenants}
        onChange={(event) => setTenants(event.target.value)}
      />
      <p className="field__help" id={`${id}h`}>
        Tenant ids, separated by commas: all their users get the canary.
      </p>
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
                send: () => client.delete(remoteApiPath(remote, 'canary')),
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
