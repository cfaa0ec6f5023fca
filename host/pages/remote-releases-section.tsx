import type { RemoteRelease, RemoteReleases } from '../../shared';
import { useApiClient } from '../core';
import { CanaryForm } from './canary-form';
import { remoteApiPath, type ApplyReleaseChange } from './release-change';
import { ReleaseHistory } from './release-history';

/** The id of a remote's heading on the operators' page: focused after a change of that remote. */
export function remoteHeadingId(remote: string): string {
  return `releases-${remote}`;
}

export interface RemoteReleasesSectionProps {
  remote: RemoteReleases;
  apply: ApplyReleaseChange;
  /** Counts the page's changes: an open history is read again after each. */
  revision: number;
}

/**
 * One remote on the operators' page: its rollout, this session's preview, its releases (newest first) with what
 * can be done to each, the canary, and the history. A release older than the active one is rolled back to, a newer
 * one activated.
 */
export function RemoteReleasesSection({
  remote: { remote, rollout, releases, preview },
  apply,
  revision,
}: RemoteReleasesSectionProps) {
  const client = useApiClient();
  const activeIndex = releases.findIndex((release) => release.version === rollout.active);
  const { canary } = rollout;
  const send = (action: string, version: string) => () => client.post(remoteApiPath(remote, action), { version });

  const actionsOf = (release: RemoteRelease, index: number) => {
    const { version } = release;
    if (index === activeIndex) return null;
    const rollback = activeIndex >= 0 && index > activeIndex;
    return (
      <>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() =>
            void apply({
              remote,
              send: send(rollback ? 'rollback' : 'activate', version),
              confirm: `${rollback ? 'Roll back' : 'Activate'} ${remote} to ${version} for everyone? It takes effect on the next page load.`,
              done: `${rollback ? 'Rolled back' : 'Activated'} ${remote} to ${version}: every page load from now on gets it.`,
            })
          }
        >
          {rollback ? `Roll back to ${version}` : `Activate ${version}`}
        </button>
        {version !== preview && (
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() =>
              void apply({
                remote,
                send: send('preview', version),
                done: `Previewing ${remote} ${version} in this session: reload a page to see it.`,
              })
            }
          >
            Preview {version}
          </button>
        )}
      </>
    );
  };

  const stateOf = (version: string) =>
    [
      version === rollout.active && 'Active',
      version === canary?.version &&
        `Canary (${canary.percent} %${canary.tenants.length ? ` and ${canary.tenants.join(', ')}` : ''})`,
      version === preview && 'Previewed by you',
    ]
      .filter(Boolean)
      .join(', ');

  return (
    <section className="card releases" aria-labelledby={remoteHeadingId(remote)} data-remote={remote}>
      <h2 id={remoteHeadingId(remote)} className="card__title" tabIndex={-1}>
        {remote}
      </h2>
      <p data-rollout>
        Active: {rollout.active ?? 'none yet'}.{' '}
        {canary
          ? `Canary: ${canary.version} to ${canary.percent} % of users${canary.tenants.length ? ` and the tenants ${canary.tenants.join(', ')}` : ''}.`
          : 'No canary.'}
      </p>
      {preview && (
        <div className="callout callout--info" data-previewing={preview}>
          <p className="callout__body">
            Previewing {preview} in this session: your page loads get it, nobody else&apos;s.
          </p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() =>
              void apply({
                remote,
                send: () => client.delete(remoteApiPath(remote, 'preview')),
                done: `Preview of ${remote} stopped: reload a page to get the release in force.`,
              })
            }
          >
            Stop preview
          </button>
        </div>
      )}
      {releases.length === 0 ? (
        <p className="empty">No release published yet.</p>
      ) : (
        <div className="table-wrap" role="region" aria-label={`Releases of ${remote}`} tabIndex={0}>
          <table className="table">
            <caption className="visually-hidden">Releases of {remote}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Published</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {releases.map((release, index) => (
                <tr key={release.version} data-release={release.version}>
                  <th scope="row">{release.version}</th>
                  <td>
                    {new Date(release.publishedAt).toLocaleString()} by {release.publishedBy}
                  </td>
                  <td>{stateOf(release.version)}</td>
                  <td className="table__actions">{actionsOf(release, index)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Canary</h3>
      <CanaryForm
        remote={remote}
        versions={releases.map((release) => release.version).filter((version) => version !== rollout.active)}
        canary={canary}
        apply={apply}
      />
      <h3>History</h3>
      <ReleaseHistory remote={remote} revision={revision} />
    </section>
  );
}
