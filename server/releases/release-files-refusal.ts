import type { RemoteRelease, RemoteRollout } from '../../shared';
import type { TraceContext } from '../observability/trace-context';
import type { ReleaseFilesCheck } from './release-files-check';
import { notDeployedStep } from './release-not-deployed';
import { RELEASE_REFUSALS } from './release-refusals';

/** How the audit trail's `reason` of a change starts when the release's origin did not answer the server. */
export const FILES_UNCONFIRMED = 'put in force with its files unconfirmed';

/** What putting a release in force goes ahead with (the audit's reason, if any), or why it may not. */
export type ReleaseFilesVerdict = { refused: string } | { reason: string | undefined };

/**
 * Whether `release` may be put in force (activated, rolled back to, given as a canary) over `before`, the rollout in
 * the database: its manifest and entry script are asked again, as when it was published (the same check, within the
 * same timeout). A release is kept for good while its files, on the team's origin, may be deleted or replaced since
 * (an old version's folder cleaned up, a fallback page answering in its place): put in force, it would fail every
 * slot of its remote for everyone, and nothing would undo it by itself. So an answer that shows the release cannot
 * load refuses the change. But an origin that does not answer the server at all (in time, or a refused connection)
 * proves nothing of what browsers get (the server's network is not theirs), and in an incident the previous release's
 * origin may be slow just when an operator rolls back to it: the change goes ahead, its audit entry saying that the
 * files were unconfirmed and why, and the remote's status (inspector, /metrics) follows the origin at once.
 * Not asked for the release already active: everyone outside a canary loads it now, so going back to it (a canary
 * rolled back) loads nothing new for them, as `DELETE …/canary`, which asks nothing, does.
 */
export async function releaseFilesVerdict(
  files: ReleaseFilesCheck,
  release: RemoteRelease,
  before: RemoteRollout,
  trace?: TraceContext,
): Promise<ReleaseFilesVerdict> {
  if (before.active === release.version) return { reason: undefined };
  const problem = await files.check(release.remote, release.entry, trace, [
    ...release.components,
    ...release.formComponents,
  ]);
  if (problem === null) return { reason: undefined };
  if (problem.unanswered) return { reason: `${FILES_UNCONFIRMED}: ${problem.message}` };
  const canary = before.canary === null ? '' : `, with its canary "${before.canary.version}"`;
  const stays =
    before.active === null ? 'no release is in force' : `release "${before.active}" stays in force${canary}`;
  // A file not there (deleted since it was published, or its folder not whole) is told as a publish tells it.
  const step = notDeployedStep(problem.errorAnswer, 'in force');
  const next = step === null ? RELEASE_REFUSALS.unloadableRelease : `${step} ${RELEASE_REFUSALS.orAnotherRelease}`;
  return {
    refused:
      `Release "${release.version}" of "${release.remote}" cannot be loaded: ${problem.message}. Nothing changed: ` +
      `${stays}. ${next}`,
  };
}
