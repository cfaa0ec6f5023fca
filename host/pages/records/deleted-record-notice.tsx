import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { ResourceRecord } from '../../../shared';
import { useRecordRestore } from '../../forms/use-record-restore';
import { deletedRecordsAddress } from '../common/deleted-records-address';

/** A record just deleted, as the list page is told of it (from the record page: in the navigation's state). */
export interface DeletedRecord {
  resource: string;
  record: ResourceRecord;
}

/** Reads a DeletedRecord out of a navigation's state; null for anything else. */
export function deletedRecordOf(state: unknown): DeletedRecord | null {
  // A history entry's state may hold anything (another version's, another page's): each part is checked.
  const { resource, record } = (state as { deleted?: Partial<DeletedRecord> | null } | null)?.deleted ?? {};
  return typeof resource === 'string' && typeof record?.id === 'number' ? { resource, record } : null;
}

/**
 * The record whose delete the list offers to undo: one deleted on the record page just left (its navigation's
 * state, then cleared from the history entry so a reload or Back does not offer it again), or set by the list.
 */
export function useDeletedRecord(): [DeletedRecord | null, (deleted: DeletedRecord | null) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const fromState = deletedRecordOf(location.state);
  const [deleted, setDeleted] = useState(fromState);
  useEffect(() => {
    // The same address (its hash too) in place of this entry, without the record. Once per location: `fromState`
    // is read from it, a new object at each render.
    if (fromState) void navigate(location, { replace: true, state: null });
  }, [location, navigate]);
  return [deleted, setDeleted];
}

/**
 * "Deleted X. Undo": the undo window of a delete. Undo takes the focus when the notice appears (the row or page that
 * held it is gone), and restores the record with its id; `onRestored` then shows it again. Undo is described by the
 * notice's text: a status filled as it appears may go unread, the focused "Undo, button" would then say nothing of
 * what it undoes. The notice goes with the page: it says where the record can be restored from for the rest of the
 * day (Recently deleted).
 */
export function DeletedRecordNotice({ deleted, onRestored }: { deleted: DeletedRecord; onRestored(): void }) {
  const { phase, restore } = useRecordRestore(deleted.resource, deleted.record.id, onRestored);
  const undo = useRef<HTMLButtonElement>(null);
  const text = useId();
  const name = deleted.record.title || `#${deleted.record.id}`;

  useEffect(() => {
    undo.current?.focus();
  }, [deleted]);

  return (
    <div className="notice notice--info deleted-notice" data-deleted-record={deleted.record.id}>
      <p role="status" className="deleted-notice__text" id={text}>
        {phase.kind === 'restored' ? 'Restored' : 'Deleted'} “<bdi>{name}</bdi>”.
      </p>
      {phase.kind !== 'restored' && (
        <button
          ref={undo}
          type="button"
          className="button button--secondary button--small"
          aria-describedby={text}
          aria-disabled={phase.kind === 'restoring'}
          onClick={() => void restore()}
        >
          Undo
        </button>
      )}
      {phase.kind !== 'restored' && (
        <p className="deleted-notice__text">
          Or restore it from <Link to={deletedRecordsAddress(deleted.resource)}>Recently deleted</Link> for a day.
        </p>
      )}
      {phase.kind === 'failed' && (
        <p className="form-error" role="alert">
          {phase.message}
        </p>
      )}
    </div>
  );
}
