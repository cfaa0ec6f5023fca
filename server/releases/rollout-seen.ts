import type { Request } from 'express';
import {
  instantInUtc,
  isPlainObject,
  ROLLOUT_PLAN_SEEN_PARAMETERS,
  ROLLOUT_PLAN_STATES,
  ROLLOUT_SEEN_PARAMETERS,
  type AuditEntry,
  type RemoteRollout,
  type RolloutPlan,
  type RolloutPlanSeen,
  type RolloutPlanState,
  type RolloutSeen,
} from '../../shared';
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

/** Whether `rollout` is still the one `seen` describes. */
export function rolloutIsAsSeen(rollout: RemoteRollout, seen: RolloutSeen): boolean {
  return seen.active === rollout.active && seen.canary === (rollout.canary?.version ?? null);
}

/**
 * Whether `now` is what ending the canary `seen` shows leaves, ended last by `actor` (`lastChange`, the rollout's last
 * audit entry): a DELETE of the canary made already, sent again (nginx resends a DELETE whose host dropped the
 * connection after ending it), which answers as the first did rather than a 409 naming the actor's own change.
 */
export function isCanaryEndedAsSeen(
  seen: RolloutSeen,
  now: RemoteRollout,
  lastChange: AuditEntry | undefined,
  actor: string,
): boolean {
  if (seen.canary === null || now.canary !== null || now.active !== seen.active) return false;
  if (lastChange?.action !== 'canary-end' || lastChange.actor !== actor) return false;
  const { before } = lastChange;
  if (!isPlainObject(before) || before.active !== seen.active || !isPlainObject(before.canary)) return false;
  return before.canary.version === seen.canary;
}

/**
 * Who moved it when (an audit entry), as the refusals say it: the time readable, in UTC, the one zone the server knows.
 * The host shows it in the reader's zone (host/pages/common/server-message.tsx finds it in the message), and a client
 * reading the answer otherwise still reads an unambiguous time.
 */
const changedBy = (lastChange: AuditEntry | undefined): string =>
  lastChange === undefined ? '' : ` (changed by ${lastChange.actor} at ${instantInUtc(lastChange.at)})`;

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
  return (
    `The rollout of "${remote}" moved since it was shown (${state(seen.active, seen.canary)}): now ` +
    `${state(now.active, now.canary?.version ?? null, now.canary?.percent)}${changedBy(lastChange)}. Nothing was ` +
    'changed: look at it again before choosing.'
  );
}

/**
 * The rollout plan the caller saw (`?version=…&startedAt=…&state=…`, shared/releases.ts), or undefined when it names
 * none. Some of the three without the others, one given twice, or an unknown state is a 400.
 */
export function rolloutPlanSeenOf(req: Request): RolloutPlanSeen | undefined {
  const names = Object.values(ROLLOUT_PLAN_SEEN_PARAMETERS);
  const given = names.map((parameter) => req.query[parameter]);
  if (given.every((value) => value === undefined)) return undefined;
  const [version, startedAt, state] = given;
  if (
    typeof version !== 'string' ||
    typeof startedAt !== 'string' ||
    !ROLLOUT_PLAN_STATES.includes(state as RolloutPlanState)
  ) {
    throw new HttpError(
      'invalid_request',
      `${names.map((parameter) => `"${parameter}"`).join(', ')} are given together, once each: the plan's version, ` +
        `when it started and its state when the action was chosen (${ROLLOUT_PLAN_STATES.join(', ')}).`,
    );
  }
  return { version, startedAt, state: state as RolloutPlanState };
}

/** Whether `plan` is still the plan `seen` describes, in the same state. Its step is not compared: a running plan moves on by itself. */
export function planIsAsSeen(plan: RolloutPlanSeen, seen: RolloutPlanSeen): boolean {
  return plan.version === seen.version && plan.startedAt === seen.startedAt && plan.state === seen.state;
}

/** Why an action chosen on the plan `seen` was not made on `now`, and who changed it when (the plan's last change). */
export function planMovedMessage(
  remote: string,
  seen: RolloutPlanSeen,
  now: Pick<RolloutPlan, 'version' | 'startedAt' | 'state'>,
  lastChange: AuditEntry | undefined,
): string {
  const plan = ({ version, startedAt, state }: RolloutPlanSeen) =>
    `${version} started at ${instantInUtc(startedAt)}, ${state}`;
  return (
    `The rollout plan of "${remote}" moved since it was shown (${plan(seen)}): now ${plan(now)}` +
    `${changedBy(lastChange)}. Nothing was changed: look at it again before choosing.`
  );
}
