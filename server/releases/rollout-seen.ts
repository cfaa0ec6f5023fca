import type { Request } from 'express';
import { ROLLOUT_SEEN_PARAMETERS, type AuditEntry, type RemoteRollout, type RolloutSeen } from '../../shared';
import { HttpError } from '../http/http-error';

/**
 * The rollout the caller saw (`?active=…&canary=…`, shared/releases.ts), or undefined when it names none. One of
 * the two alone, or either given twice, is a 400: a check of half a rollout would pass changes it should stop.
 */
export function rolloutSeenOf(req: Request): RolloutSeen | undefined {
  const { active, canary } = ROLLOUT_SEEN_PARAMETERS;
  const given = [req.query[active], req.query[canary]];
  if (given.every((value) => value === undefined)) return undefined;
  if (!given.every((value) => typeof value === 'string')) {
    throw new HttpError(
      'invalid_request',
      `"${active}" and "${canary}" are given together, once each: the versions in force when the change was ` +
        'chosen, empty for none.',
    );
  }
  const [seenActive, seenCanary] = given as string[];
  return { active: seenActive || null, canary: seenCanary || null };
}

/** Whether `rollout` is still the one `seen` describes (no `seen`: nothing to compare, it is). */
export function rolloutIsAsSeen(rollout: RemoteRollout, seen: RolloutSeen | undefined): boolean {
  return seen === undefined || (seen.active === rollout.active && seen.canary === (rollout.canary?.version ?? null));
}

/**
 * Why a change chosen on `seen` was not made over `now`, and who moved it when known (the rollout's last change):
 * the canary's share, not its tenants, whose ids an operator may not read.
 */
export function rolloutMovedMessage(
  remote: string,
  seen: RolloutSeen,
  now: RemoteRollout,
  lastChange: AuditEntry | undefined,
): string {
  const state = (active: string | null, canary: string | null, percent?: number) =>
    `${active === null ? 'no release active' : `${active} active`}, ` +
    (canary === null ? 'no canary' : `a canary of ${canary}${percent === undefined ? '' : ` to ${percent} %`}`);
  const by = lastChange === undefined ? '' : ` (changed by ${lastChange.actor} at ${lastChange.at})`;
  return (
    `The rollout of "${remote}" moved since it was shown (${state(seen.active, seen.canary)}): now ` +
    `${state(now.active, now.canary?.version ?? null, now.canary?.percent)}${by}. Nothing was changed: look at it ` +
    'again before choosing.'
  );
}
