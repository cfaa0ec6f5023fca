import { useId, useState } from 'react';
import type {
  BulkRecordPayload,
  BulkRecordRequest,
  FieldItem,
  ResourceDefinition,
  ResourceRecord,
} from '../../../shared';
import { ApiError, useApiClient, useSession } from '../../core';
import { ConfirmDialog, useConfirmDialog } from '../../layout/confirm-dialog';
import { useMayChangeRecords } from '../../forms/read-only-role';
import { countOf } from '../common/count-in-words';
import { recordNouns } from './describe-record-page';

export interface BulkActionsProps {
  definition: ResourceDefinition;
  /** The records of the page shown, and which of them are selected. */
  rows: readonly ResourceRecord[];
  selected: ReadonlySet<number>;
  onSelect(ids: ReadonlySet<number>): void;
  /** After a bulk request: the list shows the records as they are now. */
  onDone(): void;
}

type Outcome = { text: string; failures: string[]; restorable: ResourceRecord[] } | null;

/** The fields a bulk change can set: those whose values are a short list (select options, ticked or not). */
function settableFields(definition: ResourceDefinition): FieldItem[] {
  return definition.fields.filter(
    (item): item is FieldItem => item.type === 'field' && (item.input === 'select' || item.input === 'checkbox'),
  );
}

/**
 * Acting on the selected rows of a page: select all of them, set one field on all, or delete all (asked again in a
 * dialog), in one request. What became of each is said in a live region, naming the records refused and why;
 * deleted ones can be brought back with Undo.
 */
export function BulkActions({ definition, rows, selected, onSelect, onDone }: BulkActionsProps) {
  const client = useApiClient();
  const { expire } = useSession();
  const mayChange = useMayChangeRecords();
  const fields = settableFields(definition);
  const [fieldName, setFieldName] = useState(fields[0]?.name ?? '');
  const [value, setValue] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useConfirmDialog();
  const ids = rows.filter((row) => selected.has(row.id)).map((row) => row.id);
  const nouns = recordNouns(definition);
  const what = nouns.many;
  const counted = (count: number) => countOf(count, nouns.one, nouns.many);
  const fieldId = useId();
  const valueId = useId();
  const field = fields.find((each) => each.name === fieldName);
  const choices = field?.input === 'checkbox' ? ['true', 'false'] : (field?.options ?? []);
  const titleOf = (id: number) => {
    const row = rows.find((each) => each.id === id);
    return row?.title || `#${id}`;
  };

  const send = async (request: BulkRecordRequest, done: string) => {
    if (busy) return;
    setBusy(true);
    try {
      const payload = await client.post<BulkRecordPayload>(
        `/api/resources/${encodeURIComponent(definition.name)}/records/bulk`,
        request,
      );
      const failures = payload.results.flatMap((result) =>
        result.ok ? [] : [`“${titleOf(result.id)}”: ${result.error.message}`],
      );
      const succeeded = payload.results.flatMap((result) => (result.ok ? [result.record] : []));
      setOutcome({
        text: `${done} ${succeeded.length} of ${counted(payload.results.length)}.`,
        failures,
        restorable: request.action === 'delete' ? succeeded : [],
      });
      onSelect(new Set(payload.results.filter((result) => !result.ok).map((result) => result.id)));
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        expire();
        return;
      }
      setOutcome({
        text: error instanceof ApiError ? error.message : 'Could not apply.',
        failures: [],
        restorable: [],
      });
    } finally {
      setBusy(false);
    }
  };

  const undo = async (records: ResourceRecord[]) => {
    const failures: string[] = [];
    for (const record of records) {
      try {
        await client.post(`/api/resources/${encodeURIComponent(definition.name)}/records/${record.id}/restore`);
      } catch (error) {
        failures.push(
          `“${record.title || `#${record.id}`}”: ${error instanceof ApiError ? error.message : 'not restored.'}`,
        );
      }
    }
    setOutcome({
      text: `Restored ${records.length - failures.length} of ${counted(records.length)}.`,
      failures,
      restorable: [],
    });
    onDone();
  };

  // A viewer is told why on the list page (ReadOnlyRoleNotice), not offered actions the server would refuse.
  if (!mayChange || (!definition.canDelete && fields.length === 0)) return null;
  const allSelected = rows.length > 0 && ids.length === rows.length;
  return (
    <section className="bulk-actions" aria-label={`Act on selected ${what}`}>
      <label className="bulk-actions__all">
        <input
          type="checkbox"
          checked={allSelected}
          onChange={() => onSelect(allSelected ? new Set() : new Set(rows.map((row) => row.id)))}
        />{' '}
        Select all {rows.length} on this page
      </label>
      <p className="bulk-actions__count">{ids.length} selected</p>
      {fields.length > 0 && (
        <div className="bulk-actions__set">
          <label htmlFor={fieldId} className="field__label">
            Field to set
          </label>
          <select
            id={fieldId}
            className="input"
            value={fieldName}
            onChange={(event) => {
              setFieldName(event.target.value);
              setValue('');
            }}
          >
            {fields.map((each) => (
              <option key={each.name} value={each.name}>
                {each.label}
              </option>
            ))}
          </select>
          <label htmlFor={valueId} className="field__label">
            New value
          </label>
          <select id={valueId} className="input" value={value} onChange={(event) => setValue(event.target.value)}>
            <option value="">(empty)</option>
            {choices.map((choice) => (
              <option key={choice} value={choice}>
                {field?.input === 'checkbox' ? (choice === 'true' ? 'Ticked' : 'Not ticked') : choice}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button button--secondary"
            aria-disabled={ids.length === 0 || busy}
            onClick={() => {
              if (ids.length === 0) return;
              const newValue = field?.input === 'checkbox' ? value === 'true' : value === '' ? null : value;
              void send({ action: 'update', ids, values: { [fieldName]: newValue } }, 'Changed');
            }}
          >
            Set on selected
          </button>
        </div>
      )}
      {definition.canDelete && (
        <button
          type="button"
          className="button button--danger"
          aria-disabled={ids.length === 0 || busy}
          onClick={() => {
            if (ids.length === 0) return;
            dialog.open();
          }}
        >
          Delete selected
        </button>
      )}
      <div role="status" className="bulk-actions__outcome">
        {outcome && (
          <>
            <p>{outcome.text}</p>
            {outcome.failures.length > 0 && (
              <ul className="bulk-actions__failures">
                {outcome.failures.map((failure) => (
                  <li key={failure}>{failure}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      {outcome && outcome.restorable.length > 0 && (
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => void undo(outcome.restorable)}
        >
          Undo delete
        </button>
      )}
      <ConfirmDialog
        control={dialog}
        title={`Delete ${counted(ids.length)}?`}
        confirmLabel="Delete"
        onConfirm={() => {
          dialog.close();
          void send({ action: 'delete', ids }, 'Deleted');
        }}
      >
        <p>You can undo this, or restore them one by one from Recently deleted for a day.</p>
      </ConfirmDialog>
    </section>
  );
}
