import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import type { DeletedRecordsPayload, ResourceRecord } from '../../../shared';
import { reloadFailed, useApi } from '../../hooks/use-api';
import { ReadOnlyRoleNotice, useMayChangeRecords } from '../../forms/read-only-role';
import { InstantTime } from '../../text/instant-time';
import { useRestoreRecord } from '../../forms/use-record-restore';
import { Breadcrumbs } from '../../layout/breadcrumbs';
import { PageHeading } from '../../layout/page-heading';
import { countOf } from '../common/count-in-words';
import { recordNouns } from './describe-record-page';
import { listReturnAddress, useListOwner } from '../../hooks/list-return-address';
import { PageStatus } from '../common/page-status';
import { RecordTableFrame } from './record-table-frame';
import { useResourceDefinition } from '../../hooks/resource-definitions';

/** What a restore on this page ended in: the record back, or (per row) why not. */
type Outcome =
  | { kind: 'restored'; record: ResourceRecord; elsewhere: boolean }
  | { kind: 'expired'; record: ResourceRecord }
  | { kind: 'failed'; id: number; message: string };

/**
 * Recently deleted: the records of a resource deleted in the current tenant within the day a delete can be undone
 * (RECORD_RESTORE_WINDOW_MS), newest first, each with when it was deleted and until when it can come back. Restore
 * brings one back with its id; its row then goes, and the status links to it. A viewer sees the list without
 * Restore (the server refuses them the change too). Reached from the list's "Recently deleted" link, the undo
 * notice, and the page of a deleted record, so a delete can be undone after the list's notice is gone.
 */
export function DeletedRecordsPage() {
  const { resource = '' } = useParams();
  const name = encodeURIComponent(resource);
  const restoreRecord = useRestoreRecord();
  const mayChange = useMayChangeRecords();
  const owner = useListOwner(resource);
  const definition = useResourceDefinition(resource);
  // A later page (older deletions) is in the address, so Back and a reload show the same one.
  const before = useSearchParams()[0].get('before') ?? '';
  const deleted = useApi<DeletedRecordsPayload>(
    `/api/resources/${name}/records/deleted${before ? `?before=${encodeURIComponent(before)}` : ''}`,
  );
  // Restored here: their rows go at once, without asking for the list again (which would move the focus).
  const [restoredIds, setRestoredIds] = useState<ReadonlySet<number>>(() => new Set());
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);
  const restoredLink = useRef<HTMLAnchorElement>(null);
  // The page shown stays while the next one loads (a loading page in its place took the focus from the pager to the
  // heading), with the address it was read for: its words ("earlier", "before those") are its own.
  const lastShown = useRef<{ resource: string; before: string; payload: DeletedRecordsPayload } | null>(null);
  if (deleted.status === 'ready') lastShown.current = { resource, before, payload: deleted.data };
  const shown = lastShown.current?.resource === resource ? lastShown.current : null;
  const pager = useRef<HTMLElement>(null);
  const pagerPressed = useRef(false);
  // A page turned from the pager: the link pressed may be gone (no older page, or no newer), and the focus with it;
  // the pager's other link takes it, before the page's own rescue sends it to the heading.
  useLayoutEffect(() => {
    if (!pagerPressed.current || deleted.status === 'loading') return;
    pagerPressed.current = false;
    const active = document.activeElement;
    if (pager.current && !pager.current.contains(active) && (active === null || active === document.body)) {
      pager.current.querySelector<HTMLElement>('a')?.focus();
    }
  });

  useEffect(() => {
    // The row whose Restore had the focus is gone: the focus goes to the way to the record brought back.
    if (outcome?.kind === 'restored') restoredLink.current?.focus();
  }, [outcome]);

  if (definition.status === 'error') {
    return <PageStatus status="error" error={definition.error} retry={reloadFailed(definition, deleted)} />;
  }
  if (definition.status === 'loading') return <PageStatus status="loading" />;
  const { label, canDelete } = definition.data.resource;
  const nouns = recordNouns(definition.data.resource);
  const listAddress = owner ? listReturnAddress(owner) : `/resources/${name}`;
  // Without deletes the server refuses the list (405): the page says why there is nothing here instead.
  if (canDelete && deleted.status === 'error') {
    return <PageStatus status="error" error={deleted.error} retry={reloadFailed(definition, deleted)} />;
  }
  if (canDelete && deleted.status === 'loading' && !shown) return <PageStatus status="loading" />;

  const rows = shown ? shown.payload.deleted.filter(({ record }) => !restoredIds.has(record.id)) : [];
  const titleOf = (record: ResourceRecord) => record.title || `#${record.id}`;
  const restoringRecord = rows.find(({ record }) => record.id === restoring)?.record;
  const next = shown?.payload.next;
  // The page shown's own address (the address changes first, when a page is asked for).
  const shownBefore = shown?.before ?? '';
  const turnPage = () => {
    pagerPressed.current = true;
  };

  const restore = async (record: ResourceRecord) => {
    if (restoring !== null) return;
    setRestoring(record.id);
    try {
      const result = await restoreRecord(resource, record.id);
      if (result.kind === 'session-ended') return;
      if (result.kind === 'refused' && !result.gone) {
        setOutcome({ kind: 'failed', id: record.id, message: result.message });
        return;
      }
      // Back (here or elsewhere) or past its day: the row goes either way, with what happened to it.
      setRestoredIds((ids) => new Set(ids).add(record.id));
      setOutcome(
        result.kind === 'restored'
          ? { kind: 'restored', record, elsewhere: result.elsewhere }
          : { kind: 'expired', record },
      );
    } finally {
      setRestoring(null);
    }
  };

  return (
    <div className="page">
      <Breadcrumbs
        trail={[{ label: 'Dashboard', to: '/' }, { label, to: listAddress }, { label: 'Recently deleted' }]}
      />
      <PageHeading title={`Recently deleted · ${label}`}>Recently deleted</PageHeading>
      {!canDelete ? (
        <p>
          {label} records cannot be deleted, so there are none to restore. <Link to={listAddress}>Back to {label}</Link>
          .
        </p>
      ) : (
        <>
          <p className="muted">
            Deleted {nouns.many} of this tenant can be restored for a day after their delete, with the same id and
            fields.
          </p>
          {!mayChange && <ReadOnlyRoleNotice />}
          <div role="status" className="list-status">
            {/*
              Said here, not only on the button: a screen reader does not read out the new name of the button it is
              on, so "Restoring…" went unheard, and the wait after Enter was silence.
            */}
            {restoringRecord && (
              <p>
                Restoring “<bdi>{titleOf(restoringRecord)}</bdi>”…
              </p>
            )}
            {outcome?.kind === 'restored' && (
              <p>
                {outcome.elsewhere ? 'Restored already, elsewhere: “' : 'Restored “'}
                <Link ref={restoredLink} to={`/resources/${name}/${outcome.record.id}`}>
                  <bdi>{titleOf(outcome.record)}</bdi>
                </Link>
                ”.
              </p>
            )}
            {outcome?.kind === 'expired' && (
              <p>
                “<bdi>{titleOf(outcome.record)}</bdi>” can no longer be restored: its day since the delete is over.
              </p>
            )}
            <p>
              {rows.length === 0
                ? `No ${shownBefore ? 'older ' : ''}deleted ${nouns.many} to restore.`
                : next
                  ? // A full page is not the whole count: said as the page it is, the rest on the next.
                    `The ${countOf(rows.length, nouns.one, nouns.many)} deleted most recently${shownBefore ? ' before those' : ''}, newest first. Older deletions are on the next page.`
                  : `${countOf(rows.length, nouns.one, nouns.many)} deleted${shownBefore ? ' earlier' : ''}, newest first.`}
            </p>
          </div>
          {rows.length > 0 && (
            <RecordTableFrame label={`Deleted ${nouns.many}`} busy={deleted.status === 'loading'}>
              <table className="table table--records" data-deleted-records={resource}>
                <thead>
                  <tr>
                    <th scope="col">Title</th>
                    <th scope="col">Deleted</th>
                    <th scope="col">Restorable until</th>
                    {mayChange && (
                      <th scope="col" className="table__actions">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {rows.map(({ record, deletedAt, restorableUntil }) => (
                    <tr key={record.id} data-record-id={record.id}>
                      <td>
                        <bdi>{titleOf(record)}</bdi>
                      </td>
                      <td>
                        <InstantTime at={deletedAt} />
                      </td>
                      <td>
                        <InstantTime at={restorableUntil} />
                      </td>
                      {mayChange && (
                        <td className="table__actions">
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            // Its name says what it is doing, as its text does: "Restore X" on a button saying "Restoring…" was not so.
                            aria-label={
                              restoring === record.id ? `Restoring ${titleOf(record)}…` : `Restore ${titleOf(record)}`
                            }
                            aria-disabled={restoring !== null}
                            onClick={() => void restore(record)}
                          >
                            {restoring === record.id ? 'Restoring…' : 'Restore'}
                          </button>
                          {outcome?.kind === 'failed' && outcome.id === record.id && (
                            <p className="form-error deleted-records__problem" role="alert">
                              {outcome.message}
                            </p>
                          )}
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </RecordTableFrame>
          )}
          {(next || shownBefore) && (
            <nav ref={pager} className="list-pager list-pager--below" aria-label={`Pages of deleted ${nouns.many}`}>
              {shownBefore && (
                <Link className="button button--secondary" to="?" onClick={turnPage}>
                  <span aria-hidden="true">←</span> Newest deletions
                </Link>
              )}
              {next && (
                <Link
                  className="button button--secondary"
                  to={`?before=${encodeURIComponent(next)}`}
                  onClick={turnPage}
                >
                  Older deletions <span aria-hidden="true">→</span>
                </Link>
              )}
            </nav>
          )}
        </>
      )}
    </div>
  );
}
