import { useLayoutEffect, useState } from 'react';
import type { RecordDeletedPayload, ResourceDefinition, ResourceRecord } from '../../../shared';
import { ApiError, useApiClient, useSession } from '../../core';
import { ConfirmDialog, useConfirmDialog } from '../../layout/confirm-dialog';
import { useMayChangeRecords } from '../../forms/read-only-role';

export interface DeleteRecordButtonProps {
  definition: ResourceDefinition;
  record: ResourceRecord;
  /** The button's look: `small` in a list row, larger on the record page. */
  small?: boolean;
  onDeleted(payload: RecordDeletedPayload): void;
  /**
   * The record was deleted already (by someone else, another tab) when Delete was confirmed: the dialog closes, as
   * there is nothing left to delete, and the page shows the record as it is now, with the server's words.
   */
  onGone(message: string): void;
}

/**
 * Delete, asked for again in a ConfirmDialog (starting on Cancel); a refusal (records still referring to this one)
 * is read out in it. Only shown where the resource allows deletes.
 */
export function DeleteRecordButton({ definition, record, small = false, onDeleted, onGone }: DeleteRecordButtonProps) {
  const client = useApiClient();
  const { expire } = useSession();
  const mayChange = useMayChangeRecords();
  const dialog = useConfirmDialog();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The dialog is made the first time it is asked for: a list has a Delete per row, and 25 closed dialogs were a
  // third of its page's elements, made again and thrown away at every page.
  const [asked, setAsked] = useState(false);
  useLayoutEffect(() => {
    if (asked) dialog.open();
  }, [asked, dialog]);
  const name = record.title || `#${record.id}`;

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const payload = await client.delete<RecordDeletedPayload>(
        `/api/resources/${encodeURIComponent(definition.name)}/records/${record.id}`,
      );
      dialog.close();
      onDeleted(payload);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        expire();
        return;
      }
      if (error instanceof ApiError && error.deletedRecord) {
        dialog.close();
        onGone(error.message);
        return;
      }
      setProblem(error instanceof ApiError ? error.message : 'Could not delete.');
    } finally {
      setBusy(false);
    }
  };

  if (!definition.canDelete || !mayChange) return null;
  return (
    <>
      <button
        type="button"
        className={`button button--danger${small ? ' button--small' : ''}`}
        aria-label={small ? `Delete ${name}` : undefined}
        onClick={() => {
          setProblem(null);
          if (asked) dialog.open();
          else setAsked(true);
        }}
      >
        Delete
      </button>
      {asked && (
        <ConfirmDialog
          control={dialog}
          title={
            <>
              Delete “<bdi>{name}</bdi>”?
            </>
          }
          confirmLabel={busy ? 'Deleting…' : 'Delete'}
          busy={busy}
          onConfirm={() => void confirm()}
          onClose={() => setProblem(null)}
        >
          <p>
            It is removed from {definition.label} at once. You can undo this, or restore it from Recently deleted for a
            day.
          </p>
          {problem && (
            <p className="form-error" role="alert">
              {problem}
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
