import type { Logger } from 'pino';
import type { AuditAction } from '../../shared';

/**
 * The changes of what a remote serves that someone asks for (an operator's session, a team's token where the
 * operators allow it). The server's own (a rollout's step, an automatic rollback) are logged where they are decided.
 */
export type RequestedReleaseAction = Extract<
  AuditAction,
  | 'activate'
  | 'rollback'
  | 'deactivate'
  | 'canary'
  | 'canary-end'
  | 'rollout-start'
  | 'rollout-pause'
  | 'rollout-resume'
  | 'rollout-promote'
  | 'rollout-abort'
>;

/** The fields of every log line of a rollout change, requested or automatic: who, which remote, what, which release. */
export interface ReleaseChangeFields {
  actor: string;
  remote: string;
  action: AuditAction;
  version: string;
}

const IN_WORDS: Record<RequestedReleaseAction, (version: string) => string> = {
  activate: (version) => `release ${version} activated`,
  rollback: (version) => `rolled back to release ${version}`,
  deactivate: (version) => `release ${version} taken out of force`,
  canary: (version) => `canary ${version} started`,
  'canary-end': (version) => `canary ${version} ended`,
  'rollout-start': (version) => `rollout of ${version} started`,
  'rollout-pause': (version) => `rollout of ${version} paused`,
  'rollout-resume': (version) => `rollout of ${version} resumed`,
  'rollout-promote': (version) => `rollout of ${version} promoted: release ${version} activated`,
  'rollout-abort': (version) => `rollout of ${version} aborted`,
};

/**
 * Logs a requested change once, by the host that made it, at info, with the fields the automatic ones carry: an alert
 * or a search on the log then sees every change of a remote, and who made it, without reading the audit trail (where
 * it is recorded too). `detail`: what the line adds (a canary's share, a plan's steps).
 */
export function logRequestedReleaseChange(
  logger: Pick<Logger, 'info'>,
  change: ReleaseChangeFields & { action: RequestedReleaseAction },
  detail?: string,
): void {
  const { actor, remote, action, version } = change;
  logger.info(
    { actor, remote, action, version },
    `remote "${remote}": ${IN_WORDS[action](version)} by ${actor}${detail === undefined ? '' : ` (${detail})`}`,
  );
}
