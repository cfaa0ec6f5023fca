import { useId, useRef, useState } from 'react';
import type { RecordDeletedPayload, ResourceDefinition, ResourceRecord } from '../../shared';
import { ApiError, useApiClient, useSession } from '../core';

export interface DeleteRecordButtonProps {
  definition: ResourceDefinition;
  record: ResourceRecord;
  /** The button's look: `small` in a list row, larger on the record page. */
  small?: boolean;
  onDeleted(payload: RecordDeletedPayload): void;
}

/**
 * Delete, asked for again in a modal dialog (the browser's own: it keeps the focus inside, Escape closes it, and the
 * focus comes back to this button). The dialog starts on Cancel; a refusal (records still referring to this one) is
 * read out in it. Only shown where the resource allows deletes.
 */
export function DeleteRecordButton({ definition, record, small = false, onDeleted }: DeleteRecordButtonProps) {
  const client = useApiClient();
  const { expire } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const name = record.title || `#${record.id}`;

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const payload = await client.delete<RecordDeletedPayload>(
        `/api/resources/${encodeURIComponent(definition.name)}/records/${record.id}`,
      );
      dialog.current?.close();
      onDeleted(payload);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        expire();
        return;
      }
      setProblem(error instanceof ApiError ? error.message : 'Could not delete.');
    } finally {
      setBusy(false);
    }
  };

  if (!definition.canDelete) return null;
  return (
    <>
      <button
        type="button"
        className={`button button--danger${small ? ' button--small' : ''}`}
        aria-label={small ? `Delete ${name}` : undefined}
        onClick={() => {
          setProblem(null);
          dialog.current?.showModal();
          // Cancel rather than Delete takes the focus, so that a slip of Enter keeps the record.
          cancel.current?.focus();
        }}
      >
        Delete
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId} onClose={() => setProblem(null)}>
        <h2 id={titleId} className="dialog__title">
          Delete “{name}”?
        </h2>
        <p>It leaves the {definition.label.toLowerCase()} at once; you can undo this for a day.</p>
        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="button button--danger" aria-disabled={busy} onClick={() => void confirm()}>
            {busy ? 'Deleting…' : 'Delete'}
          </button>
          <button
            ref={cancel}
            type="button"
            className="button button--secondary"
            onClick={() => dialog.current?.close()}
          >
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
