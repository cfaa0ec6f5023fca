import {
  ROLLOUT_PLAN_SEEN_PARAMETERS,
  ROLLOUT_SEEN_PARAMETERS,
  type AutomaticRollback,
  type CanaryRollout,
  type RemoteRollout,
  type RolloutPlan,
  type RolloutPlanAction,
  type RolloutPlanSeen,
} from '../../../shared';
import type { ApiError } from '../../core';
import type { ConfirmQuestion } from '../../layout/confirm-question';
import { planStopsWarning, rolledBackWarning } from './release-warnings';

/** One change to a remote's rollout the operators' page makes: what is sent, asked and announced. */
export interface ReleaseChange {
  remote: string;
  /** Sends the change; rejects with the server's ApiError when it is refused. */
  send(): Promise<unknown>;
  /** Asked in the app's confirmation dialog before sending (activate, roll back); none: sent at once. */
  confirm?: ConfirmQuestion;
  /** Announced once the server accepted it. */
  done: string;
  /** Told the server's refusal (the page's alert says it too): a form marks the fields it names. */
  onRefused?(refusal: ApiError): void;
}

/** The operators' page's way to make a change; resolves to whether it was accepted. */
export type ApplyReleaseChange = (change: ReleaseChange) => Promise<boolean>;

/**
 * The API path of an action on one remote (`activate`, `canary`, `history`, ...). A change names the rollout the page
 * shows (`seen`): the server refuses it (409) once another operator, a plan or an automatic rollback moved it since,
 * rather than end or replace what this operator was never shown; the page then reads the list again.
 */
export function remoteApiPath(remote: string, action: string, seen?: RemoteRollout): string {
  const path = `/api/remotes/${encodeURIComponent(remote)}/${action}`;
  if (seen === undefined) return path;
  const query = new URLSearchParams({
    [ROLLOUT_SEEN_PARAMETERS.active]: seen.active ?? '',
    [ROLLOUT_SEEN_PARAMETERS.canary]: seen.canary?.version ?? '',
  });
  return `${path}?${query}`;
}

/**
 * The API path of an action on a remote's rollout plan, naming the plan the page shows (`seen`): the server refuses it
 * (409) once another plan was started or this one paused, resumed or ended since, rather than promote or abort what
 * this operator was never shown; the page then reads the list again.
 */
export function rolloutPlanActionPath(remote: string, action: RolloutPlanAction, seen: RolloutPlanSeen): string {
  const query = new URLSearchParams({
    [ROLLOUT_PLAN_SEEN_PARAMETERS.version]: seen.version,
    [ROLLOUT_PLAN_SEEN_PARAMETERS.startedAt]: seen.startedAt,
    [ROLLOUT_PLAN_SEEN_PARAMETERS.state]: seen.state,
  });
  return `${remoteApiPath(remote, `rollouts/current/${action}`)}?${query}`;
}

/**
 * A canary in words, the same in the rollout, the releases' states and the history: `1.2.0 to 10 % and globex`
 * (`and acme, 2 tenants hidden from you` for an operator who reads only their own tenants' ids); a canary of tenants
 * alone names them alone (`1.2.0 to acme`), not a share of nobody beside them.
 */
export function describeCanary({ version, percent, tenants, otherTenants = 0 }: CanaryRollout): string {
  const hidden =
    otherTenants > 0 ? [`${otherTenants} ${otherTenants === 1 ? 'tenant' : 'tenants'} hidden from you`] : [];
  const named = [...tenants, ...hidden];
  const share = percent > 0 || named.length === 0 ? [`${percent} %`] : [];
  return `${version} to ${[...share, ...(named.length > 0 ? [named.join(', ')] : [])].join(' and ')}`;
}

/**
 * The question before a change that replaces a running canary (a new canary, a progressive rollout): what runs now
 * (its share and tenants) goes, for `instead`.
 */
export function replaceCanaryQuestion(remote: string, running: CanaryRollout, instead: string): ConfirmQuestion {
  return {
    title: `Replace the canary of ${remote}?`,
    body: `The canary running now, ${describeCanary(running)}, ends: ${instead} instead.`,
    confirmLabel: 'Replace the canary',
  };
}

/**
 * The question before a new canary (given here, or a plan's first step), or none: a running canary is replaced, a live
 * plan stopped, a release the server rolled back given again; without any of these the change is made at once.
 */
export function canaryQuestion(
  remote: string,
  running: CanaryRollout | null,
  instead: string,
  { plan, rolledBack }: { plan: RolloutPlan | null; rolledBack: AutomaticRollback | undefined },
): { confirm?: ConfirmQuestion } {
  const warnings = `${planStopsWarning(plan)}${rolledBackWarning(rolledBack)}`;
  if (running !== null) {
    const question = replaceCanaryQuestion(remote, running, instead);
    return { confirm: { ...question, body: `${question.body as string}${warnings}` } };
  }
  if (warnings === '') return {};
  return {
    confirm: {
      title: `Start ${instead} for ${remote}?`,
      body: warnings.trim(),
      confirmLabel: 'Give it anyway',
      tone: 'danger',
    },
  };
}
