import { useCallback, useEffect, useRef, useState } from 'react';
import { RELEASES_MANAGE, userMay, type RemoteReleasesPayload } from '../../../shared';
import { ApiError, useApiClient, useSession } from '../../core';
import { useApi } from '../../hooks/use-api';
import { useConfirmQuestion } from '../../layout/confirm-question';
import { PageHeading } from '../../layout/page-heading';
import { OperatorsOnlyPage } from '../common/operators-only-page';
import { PageStatus } from '../common/page-status';
import { RefusalSummary } from '../common/refusal-summary';
import type { ApplyReleaseChange } from './release-change';
import { automaticRollbackMessage, RemoteReleasesSection, remoteHeadingId } from './remote-releases-section';
import { useSlotLoadStats } from '../common/slot-load-figures';

const RELEASES_API_PATH = '/api/remotes/releases';
/** How often an open page reads the rollouts again: the server may end a failing canary on its own. */
const ROLLOUTS_REFRESH_MS = 20_000;

/**
 * The operators' page of releases: every remote with its releases and rollout, and the changes an operator makes
 * (activate, roll back, canary, preview). Staff without releases:manage in the current tenant (operators have it) get
 * "operators only" (the API answers them 403 anyway, which shows the same page when the role was taken away since
 * signing in).
 */
export function ReleasesPage() {
  const { user } = useSession();
  return userMay(user, RELEASES_MANAGE) ? <Releases /> : <OperatorsOnlyPage />;
}

/** The last change's outcome: announced (status or alert) and where the focus goes. */
interface ChangeResult {
  remote: string;
  message: string;
  refused: boolean;
  problems: readonly string[];
}

function Releases() {
  const client = useApiClient();
  const { expire } = useSession();
  const initial = useApi<RemoteReleasesPayload>(RELEASES_API_PATH);
  const stats = useSlotLoadStats();
  // Reloaded after each change in place of the first answer: the list stays on screen (and the focus in it).
  const [fresh, setFresh] = useState<RemoteReleasesPayload | null>(null);
  const [revision, setRevision] = useState(0);
  const [result, setResult] = useState<ChangeResult | null>(null);
  /** What changed by itself while the page was open (a canary rolled back by the server), announced without focus. */
  const [news, setNews] = useState<string | null>(null);
  const busy = useRef(false);
  const alert = useRef<HTMLDivElement>(null);
  const { ask, dialog } = useConfirmQuestion();

  useEffect(() => {
    // After a change the button pressed may be gone: the focus goes to the refusal, or to the remote's heading.
    if (result?.refused) alert.current?.focus();
    else if (result) document.getElementById(remoteHeadingId(result.remote))?.focus();
  }, [result]);

  const apply = useCallback<ApplyReleaseChange>(
    async (change) => {
      if (busy.current) return false;
      // Busy while asked too: the list is not read again under the question.
      busy.current = true;
      if (change.confirm && !(await ask(change.confirm))) {
        busy.current = false;
        return false;
      }
      const { remote } = change;
      try {
        await change.send();
      } catch (error) {
        const refusal = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
        if (refusal.status === 401) expire();
        setResult({ remote, message: refusal.message, refused: true, problems: refusal.problems });
        change.onRefused?.(refusal);
        // A refusal often means the rollout moved meanwhile (another operator promoted the plan this one aborts):
        // the list is read again, so the page shows what is now rather than offer the same refused change.
        if (refusal.status !== 401 && refusal.status !== 0) {
          try {
            setFresh(await client.get<RemoteReleasesPayload>(RELEASES_API_PATH));
          } catch {
            // The refusal is said; the next periodic read shows the list.
          }
        }
        busy.current = false;
        return false;
      }
      let message = change.done;
      try {
        setFresh(await client.get<RemoteReleasesPayload>(RELEASES_API_PATH));
      } catch (error) {
        message += ` The list could not be reloaded (${(error as Error).message}): reload the page.`;
      }
      setRevision((value) => value + 1);
      setNews(null);
      setResult({ remote, message, refused: false, problems: [] });
      busy.current = false;
      return true;
    },
    [client, expire, ask],
  );

  const data = fresh ?? initial.data;
  const shown = useRef(data);
  shown.current = data;
  useEffect(() => {
    // A rollout the server changed by itself (a failing canary rolled back) shows without a reload; an unchanged
    // list is not replaced, so nothing on the page moves under the operator.
    const timer = setInterval(() => {
      if (busy.current) return;
      // By itself, not for the operator: it must not keep an unattended page signed in.
      client.get<RemoteReleasesPayload>(RELEASES_API_PATH, undefined, { background: true }).then(
        (next) => {
          if (busy.current || JSON.stringify(next) === JSON.stringify(shown.current)) return;
          const rolledBack = next.remotes.flatMap(({ remote, automaticRollback: rollback }) => {
            const before = shown.current?.remotes.find((shownRemote) => shownRemote.remote === remote);
            return rollback && rollback.at !== before?.automaticRollback?.at
              ? [automaticRollbackMessage(remote, rollback)]
              : [];
          });
          if (rolledBack.length > 0) setNews(rolledBack.join(' '));
          setFresh(next);
        },
        () => undefined,
      );
    }, ROLLOUTS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [client]);

  if (initial.status === 'error' && initial.error.status === 403) return <OperatorsOnlyPage />;
  if (data === null) {
    return initial.status === 'error' ? (
      <PageStatus status="error" error={initial.error} retry={initial.reload} />
    ) : (
      <PageStatus status="loading" />
    );
  }
  return (
    <div className="page">
      <PageHeading title="Releases" />
      <p className="muted">
        The releases of each remote that has published one, and which one is in force (a remote without any is served
        from the build the server was given). A change takes effect on the next page load, on every host.
      </p>
      <p role="status" className="form__status" data-releases-status>
        {result && !result.refused ? result.message : ''}
        {news && ` ${news}`}
      </p>
      {data.changesRefused !== undefined && (
        <p className="notice notice--info" data-releases-read-only>
          {data.changesRefused} You can follow the releases and their loads here, and preview a release in your own
          session.
        </p>
      )}
      {result?.refused && (
        <RefusalSummary message={result.message} problems={result.problems} ref={alert} mark="data-releases-refused" />
      )}
      {data.remotes.length === 0 ? (
        <p className="empty">
          No release published yet: every remote is served from the build the server was given. A team publishes one
          with its remote token (<code>npm run release</code> in its project).
        </p>
      ) : (
        data.remotes.map((remote) => (
          <RemoteReleasesSection
            key={remote.remote}
            remote={remote}
            apply={apply}
            revision={revision}
            stats={stats}
            mayChange={data.changesRefused === undefined}
            onCanaryEdit={() =>
              setResult((current) => (current?.refused && current.remote === remote.remote ? null : current))
            }
          />
        ))
      )}
      {dialog}
    </div>
  );
}
