import type { ReactNode } from 'react';
import type { AutomaticRollback, RemoteReleases, SlotStatsPayload } from '../../../shared';
import { useApiClient } from '../../core';
import { useOverflowing } from '../../hooks/use-overflowing';
import { instantInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';
import { BreakableText } from '../../text/breakable-text';
import { InstantTime } from '../../text/instant-time';
import { CanaryForm } from './canary-form';
import { describeCanary, remoteApiPath, type ApplyReleaseChange, type ReleaseChange } from './release-change';
import { ReleaseHistory } from './release-history';
import { RolloutPlanPanel } from './rollout-plan-panel';
import { FailureRate, LoadTime, releaseStats } from '../common/slot-load-figures';
import { automaticRollbackOf, planStopsWarning, rolledBackState, rolledBackWarning } from './release-warnings';

/** What the page says of a canary the server rolled back on its own, and why (as audited). */
export function automaticRollbackMessage(remote: string, rollback: AutomaticRollback): string {
  const why = rollback.reason ? `: ${rollback.reason}` : '';
  return `The canary ${rollback.version} of ${remote} was rolled back automatically on ${instantInWords(rollback.at, readerLocales())}${why}.`;
}

/**
 * A release's action as its row shows it, the verb alone (the row's heading says the version beside it), and as a
 * screen reader says it, with the version (`Roll back to 1.0.0`), in a list of the page's buttons too. Seen, the
 * version made each button as wide as the longest version (up to 64 characters) or broke it letter by letter.
 */
function rowAction(verb: string, heardOnly: string): ReactNode {
  return (
    <>
      {verb}
      <span className="visually-hidden"> {heardOnly}</span>
    </>
  );
}

/** The id of a remote's heading on the operators' page: focused after a change of that remote. */
export function remoteHeadingId(remote: string): string {
  return `releases-${remote}`;
}

export interface RemoteReleasesSectionProps {
  remote: RemoteReleases;
  apply: ApplyReleaseChange;
  /** Counts the page's changes: an open history is read again after each. */
  revision: number;
  /** The slot loads of the last hour (null until known): each release's figures, a canary's next to the stable one's. */
  stats: SlotStatsPayload | null;
  /**
   * Whether the user may change rollouts (activate, roll back, canary): not when their account lacks releases:manage
   * in another tenant (the page says why). A preview of their own session stays offered.
   */
  mayChange: boolean;
  /** A field of the canary form was edited (the page's refusal of the last try goes). */
  onCanaryEdit?: () => void;
}

/**
 * One remote on the operators' page: its rollout, this session's preview, its releases (newest first) with their
 * slot loads of the last hour (a canary's next to the stable release's) and what can be done to each, the canary,
 * and the history. A release older than the active one is rolled back to, a newer
 * one activated.
 */
export function RemoteReleasesSection({
  remote: { remote, rollout, releases, preview, automaticRollback, automaticRollbacks, plan },
  apply,
  revision,
  stats,
  mayChange,
  onCanaryEdit,
}: RemoteReleasesSectionProps) {
  const client = useApiClient();
  const { ref: frame, overflowing } = useOverflowing<HTMLDivElement>();
  const activeIndex = releases.findIndex((release) => release.version === rollout.active);
  const { canary } = rollout;
  // Activating, rolling back and serving the own build all end a running canary, and stop a plan growing one: the
  // confirmation says so.
  const endsCanary = canary ? ` This ends the canary of ${describeCanary(canary)}.` : '';
  const forEveryone = `Every host serves it from the next page load, to everyone.${endsCanary}${planStopsWarning(plan)}`;
  const rolledBack = (version: string) => automaticRollbackOf(automaticRollbacks, version);
  // A change of the rollout names the one shown, refused once it has moved; a preview is this session's alone.
  const change = (action: string, version: string) => () =>
    client.post(remoteApiPath(remote, action, rollout), { version });
  const previewOf = (version: string) => () => client.post(remoteApiPath(remote, 'preview'), { version });
  const button = (label: ReactNode, change: Omit<ReleaseChange, 'remote'>, kind = 'secondary') => (
    <button type="button" className={`button button--${kind}`} onClick={() => void apply({ remote, ...change })}>
      {label}
    </button>
  );

  return (
    <section className="card" aria-labelledby={remoteHeadingId(remote)} data-remote={remote}>
      <h2 id={remoteHeadingId(remote)} className="card__title" tabIndex={-1}>
        {remote}
      </h2>
      <p data-rollout>
        Active: {rollout.active ?? 'none: the build the server was given is served'}.{' '}
        {canary ? `Canary: ${describeCanary(canary)}.` : 'No canary.'}
      </p>
      {automaticRollback && (
        // Until the rollout changes again: an operator arriving later learns why the canary is gone.
        <div className="callout callout--warning" data-automatic-rollback={automaticRollback.version}>
          <p className="callout__body">{automaticRollbackMessage(remote, automaticRollback)}</p>
        </div>
      )}
      {mayChange &&
        rollout.active !== null &&
        button(
          "Serve the server's own build",
          {
            send: () => client.post(remoteApiPath(remote, 'deactivate', rollout)),
            confirm: {
              title: `Serve the server's own build of ${remote}?`,
              body: `${rollout.active} goes out of force: the build the server was given is served. ${forEveryone}`,
              confirmLabel: "Serve the server's own build",
            },
            done: `${remote} serves the build the server was given again.`,
          },
          'ghost',
        )}
      {preview && (
        <div className="callout callout--info" data-previewing={preview}>
          <p className="callout__body">Previewing {preview} in this session: only your page loads get it.</p>
          {button('Stop preview', {
            send: () => client.delete(remoteApiPath(remote, 'preview')),
            done: `Preview of ${remote} stopped.`,
          })}
        </div>
      )}
      {/* Marked while wider than its frame (a phone, a long version): the pinned actions then show their shadow. */}
      <div
        ref={frame}
        className="table-wrap"
        role="region"
        aria-label={`Releases of ${remote}`}
        tabIndex={0}
        data-overflowing={overflowing || undefined}
      >
        <table className="table table--releases">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Published</th>
              <th scope="col">State</th>
              <th scope="col">Loads (1 h)</th>
              <th scope="col">Failed</th>
              <th scope="col">Load time p95</th>
              <th scope="col" className="table__actions">
                Actions
              </th>
            </tr>
          </thead>
          <tbody>
            {releases.map(({ version, publishedAt, publishedBy, kit }, index) => {
              const rollback = activeIndex >= 0 && index > activeIndex;
              const verb = rollback ? 'Roll back' : 'Activate';
              const figures = releaseStats(stats, remote, version);
              return (
                <tr key={version} data-release={version}>
                  <th scope="row">
                    {/* Between its parts (`2026.11.29-` then `build.1742+`); a hash wider than the column, inside. */}
                    <BreakableText text={version} breakAfter=".-+_" wide="break" />
                  </th>
                  <td>
                    <InstantTime at={publishedAt} /> by{' '}
                    {/^(config|REMOTES_CONFIG)$/.test(publishedBy)
                      ? 'REMOTES_CONFIG (the entry the file declares)'
                      : publishedBy}
                    {/* Which contract the team built and tested against: the kit's changelog says what changed since. */}
                    {kit && `, built with remote kit ${kit}`}
                  </td>
                  <td>
                    {[
                      index === activeIndex && 'Active',
                      version === canary?.version && `Canary (${describeCanary(canary)})`,
                      version === preview && 'Previewed by you',
                      // Once out of force: offered again, it is one whose canary failed its visitors.
                      index !== activeIndex &&
                        version !== canary?.version &&
                        rolledBack(version) !== undefined &&
                        rolledBackState(rolledBack(version)!),
                    ]
                      .filter(Boolean)
                      .join(', ')}
                  </td>
                  <td>{figures ? figures.loads : '—'}</td>
                  <td>
                    <FailureRate stats={figures} />
                  </td>
                  <td>
                    <LoadTime stats={figures} />
                  </td>
                  <td className="table__actions">
                    {mayChange &&
                      index !== activeIndex &&
                      button(rowAction(verb, rollback ? `to ${version}` : version), {
                        send: change(rollback ? 'rollback' : 'activate', version),
                        confirm: {
                          title: `${verb} ${remote} to ${version}?`,
                          body: `${forEveryone}${rolledBackWarning(rolledBack(version))}`,
                          confirmLabel: verb,
                          tone: rollback ? 'danger' : 'primary',
                        },
                        done: `${rollback ? 'Rolled back' : 'Activated'} ${remote} to ${version}.`,
                      })}
                    {index !== activeIndex &&
                      version !== preview &&
                      button(
                        rowAction('Preview', version),
                        { send: previewOf(version), done: `Previewing ${remote} ${version} in this session.` },
                        'ghost',
                      )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {mayChange && (
        <>
          <h3 className="card__subtitle">Canary</h3>
          <CanaryForm
            remote={remote}
            versions={releases.map((release) => release.version).filter((version) => version !== rollout.active)}
            rollout={rollout}
            plan={plan}
            automaticRollbacks={automaticRollbacks}
            apply={apply}
            onEdit={onCanaryEdit}
          />
        </>
      )}
      <h3 className="card__subtitle">Progressive rollout</h3>
      <RolloutPlanPanel
        remote={remote}
        plan={plan}
        versions={releases.map((release) => release.version).filter((version) => version !== rollout.active)}
        mayChange={mayChange}
        rollout={rollout}
        automaticRollbacks={automaticRollbacks}
        apply={apply}
      />
      <h3 className="card__subtitle">History</h3>
      <ReleaseHistory remote={remote} revision={revision} />
    </section>
  );
}
