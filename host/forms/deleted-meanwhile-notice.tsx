import { useEffect, useRef } from 'react';
import type { RestorableRecord } from '../../shared';
import { DeletedRecordMessage } from './restore-deadline';
import { useRecordRestore } from './use-record-restore';

/**
 * A save refused because the record was deleted since the form opened (404 with `deletedRecord`): the server's
 * message (its deadline in the reader's clock), and the record restored from here, so that the changes the form still holds can be saved again without
 * leaving the page (which would mean leaving them). `onRestored` runs once it is back.
 */
export function DeletedMeanwhileNotice({
  message,
  deleted,
  onRestored,
}: {
  message: string;
  deleted: RestorableRecord;
  onRestored(): void;
}) {
  const { phase, restore } = useRecordRestore(deleted.resource, deleted.id, onRestored);
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => notice.current?.focus(), [deleted]);

  return (
    <div ref={notice} className="form-error" role="alert" tabIndex={-1} data-deleted-meanwhile={deleted.id}>
      <p>
        <DeletedRecordMessage message={message} restorableUntil={deleted.restorableUntil} />
      </p>
      {phase.kind === 'failed' ? (
        <p>{phase.message}</p>
      ) : (
        <p className="inline">
          <button
            type="button"
            className="button button--secondary button--small"
            aria-disabled={phase.kind === 'restoring'}
            onClick={() => void restore()}
          >
            {phase.kind === 'restoring' ? 'Restoring…' : 'Restore it'}
          </button>
        </p>
      )}
    </div>
  );
}
