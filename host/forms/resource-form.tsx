import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type {
  FieldItem,
  FormContext,
  JsonValue,
  RecordPayload,
  RecordUpdateRequest,
  RelationBlock,
  ResourceDefinition,
  ResourceRecord,
} from '../../shared';
import { ApiError, FormSlot, useApiClient, useSession } from '../core';
import { useUnsavedChanges } from '../app/unsaved-changes';
import { FieldControl } from './field-control';
import { forgetDraft, keepDraft, readDraft, type DraftOwner } from './record-draft';
import { FieldErrorSummary } from './field-error-summary';
import { focusUnchosenPicker, UNCHOSEN_MESSAGE } from './related-record-picker';
import { ReadOnlyRoleNotice, useMayChangeRecords } from './read-only-role';
import { findSaveConflict, SaveConflictNotice, type SaveConflict } from './save-conflict';

export interface ResourceFormProps {
  definition: ResourceDefinition;
  /** The record edited; none: a new record, created (POST) by the first save. */
  record?: ResourceRecord;
  /** The record's relations as its page has them: what its relation fields point at, named without a request. */
  relations?: readonly RelationBlock[];
  /** After a save; after a create, once the form holds nothing unsaved (so a navigation away is not held back). */
  onSaved?(payload: RecordPayload): void;
}

/** A new record's values before anything is typed: every field empty. */
const NEW_RECORD: Readonly<Record<string, JsonValue | undefined>> = Object.freeze({});

function initialValues(
  fields: readonly FieldItem[],
  record: Readonly<Record<string, JsonValue | undefined>>,
): Record<string, JsonValue> {
  const values: Record<string, JsonValue> = {};
  for (const field of fields) {
    const value = record[field.name];
    values[field.name] =
      value === undefined ? (field.input === 'checkbox' ? false : field.input === 'relation' ? null : '') : value;
  }
  return values;
}

function sameValues(fields: readonly FieldItem[], a: Record<string, JsonValue>, b: Record<string, JsonValue>): boolean {
  return fields.every((field) => JSON.stringify(a[field.name] ?? null) === JSON.stringify(b[field.name] ?? null));
}

/** `failed` with a message when the save failed as a whole; field errors are listed from `errors` instead. */
type Status =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'failed'; message: string | null }
  | { kind: 'conflict'; conflict: SaveConflict };

/**
 * The record form: the resource's items in order, an ordinary field or a slot item (through the global registry,
 * with `resource`, `formContext` and its props). Saving PUTs the field values and shows the server's `error.fields`
 * by name, with focus on the first field to fix. Unsaved changes are guarded (see unsaved-changes), and kept in
 * the tab when the session ends mid-edit, to be offered back once the same user signs in again.
 */
export function ResourceForm({ definition, record, relations, onSaved }: ResourceFormProps) {
  const client = useApiClient();
  const session = useSession();
  const mayChange = useMayChangeRecords();
  const { expire, onExpire } = session;
  const fields = useMemo(
    () => definition.fields.filter((item): item is FieldItem => item.type === 'field'),
    [definition.fields],
  );
  const draftOwner = useMemo<DraftOwner | null>(
    () =>
      session.user
        ? {
            username: session.user.username,
            tenant: session.user.currentTenant,
            resource: definition.name,
            // A new record's draft: one per resource, as there is one New page per resource.
            id: record?.id ?? 0,
          }
        : null,
    [session.user, definition.name, record?.id],
  );
  const mode = record ? 'edit' : 'create';
  const [saved, setSaved] = useState(() => initialValues(fields, record ?? NEW_RECORD));
  const [created, setCreated] = useState<RecordPayload | null>(null);
  const [restoredDraft] = useState(() => (draftOwner ? readDraft(draftOwner) : null));
  const [values, setValues] = useState(() => (restoredDraft ? { ...saved, ...restoredDraft } : saved));
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [focusFirstError, setFocusFirstError] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const saving = useRef(false);
  const unsaved = !sameValues(fields, values, saved);
  // A viewer has nothing to save: leaving is never held back for what it typed.
  useUnsavedChanges(unsaved && mayChange);

  // After useUnsavedChanges' effect has cleared the unsaved mark: the page may now leave the New form.
  useEffect(() => {
    if (created && !unsaved) onSaved?.(created);
  }, [created, unsaved, onSaved]);

  // The draft is in the form now; it is kept again if the session ends again.
  useEffect(() => {
    if (restoredDraft && draftOwner) forgetDraft(draftOwner);
  }, [restoredDraft, draftOwner]);

  const latest = useRef({ unsaved, values, draftOwner });
  latest.current = { unsaved, values, draftOwner };
  useEffect(
    () =>
      onExpire(() => {
        const { unsaved: pending, values: current, draftOwner: owner } = latest.current;
        if (pending && owner) keepDraft(owner, current);
      }),
    [onExpire],
  );

  useEffect(() => {
    if (focusFirstError === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusFirstError]);

  const setValue = useCallback((name: string, value: JsonValue) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => {
      if (!(name in current)) return current;
      const { [name]: _cleared, ...rest } = current;
      return rest;
    });
    setStatus((current) => (current.kind === 'saved' ? { kind: 'idle' } : current));
  }, []);

  const formContext = useMemo<FormContext>(
    () => ({ mode, values, errors, setValue }),
    [mode, values, errors, setValue],
  );

  const submit = async (event?: FormEvent<HTMLFormElement>, overwriting?: SaveConflict) => {
    event?.preventDefault();
    // The Save button stays enabled (disabling it would drop the keyboard focus), so a second press is ignored here.
    // A created record is saved once: the page moves on to it.
    if (saving.current || created || !mayChange) return;
    // A name typed in a relation field and not chosen: saving now would keep the old choice without a word.
    if (focusUnchosenPicker(formRef.current)) {
      setStatus({ kind: 'failed', message: UNCHOSEN_MESSAGE });
      return;
    }
    saving.current = true;
    setStatus({ kind: 'saving' });
    const body: RecordUpdateRequest = {};
    for (const field of fields) {
      // An edit sends only what it changed; the server keeps the other fields as stored, so a change saved meanwhile
      // (another tab, another person) to a field this form left alone is kept, and shown once this save answers.
      if (record && sameValues([field], values, saved)) continue;
      body[field.name] = values[field.name] ?? null;
    }
    try {
      const records = `/api/resources/${encodeURIComponent(definition.name)}/records`;
      // The same field changed by someone else meanwhile: asked about, not replaced (unless the answer was to).
      const conflict =
        record && !overwriting
          ? await findSaveConflict(client, `${records}/${record.id}`, fields, saved, values, (stored) =>
              initialValues(fields, stored),
            )
          : null;
      if (conflict) {
        setStatus({ kind: 'conflict', conflict });
        return;
      }
      const payload = record
        ? await client.put<RecordPayload>(`${records}/${record.id}`, body)
        : await client.post<RecordPayload>(records, body);
      const stored = initialValues(fields, payload.record);
      setErrors({});
      setSaved(stored);
      setValues(stored);
      setStatus({ kind: 'saved' });
      if (record) onSaved?.(payload);
      else setCreated(payload);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        expire();
        return;
      }
      const fieldErrors = error instanceof ApiError ? error.fields : {};
      setErrors(fieldErrors);
      const count = Object.keys(fieldErrors).length;
      const message = error instanceof ApiError ? (count > 0 ? null : error.message) : 'Could not save.';
      setStatus({ kind: 'failed', message });
      if (count > 0) setFocusFirstError((value) => value + 1);
    } finally {
      saving.current = false;
    }
  };

  return (
    <form
      ref={formRef}
      className="card form"
      onSubmit={(event) => void submit(event)}
      noValidate
      data-resource-form={definition.name}
    >
      {restoredDraft && unsaved && (
        <p className="notice notice--info" role="status">
          Your unsaved changes were kept while you signed in again. Review them, then save.
        </p>
      )}
      {/* A viewer reads the values: every control, the form slots' too, is disabled, as nothing could be saved. */}
      <fieldset className="form__fields" disabled={!mayChange}>
        {definition.fields.map((item, index) =>
          item.type === 'field' ? (
            <FieldControl
              key={`field:${item.name}`}
              field={item}
              value={values[item.name]}
              error={errors[item.name]}
              related={relations?.find((relation) => relation.name === item.relation)?.records}
              onChange={(value) => setValue(item.name, value)}
            />
          ) : (
            <FormSlot
              key={`slot:${index}:${item.component}`}
              item={item}
              resource={definition.name}
              formContext={formContext}
            />
          ),
        )}
      </fieldset>
      <div className="form__footer">
        {mayChange ? (
          <button type="submit" className="button button--primary" aria-disabled={status.kind === 'saving'}>
            {status.kind === 'saving' ? 'Saving…' : mode === 'create' ? 'Create' : 'Save'}
          </button>
        ) : (
          // A viewer: no Save to press (the server would refuse it), and why.
          <ReadOnlyRoleNotice />
        )}
        <p className="form__status" role="status">
          {status.kind === 'saved' && (mode === 'create' ? 'Created.' : 'Saved.')}
        </p>
        {status.kind === 'conflict' && (
          <SaveConflictNotice
            conflict={status.conflict}
            onKeepTheirs={() => {
              const theirs = Object.fromEntries(
                status.conflict.fields.map((field) => [field.name, status.conflict.theirs[field.name] ?? null]),
              );
              setSaved((current) => ({ ...current, ...theirs }));
              setValues((current) => ({ ...current, ...theirs }));
              setStatus({ kind: 'idle' });
            }}
            onSaveMine={() => void submit(undefined, status.conflict)}
          />
        )}
        {status.kind === 'failed' && status.message !== null && (
          <p className="form-error" role="alert">
            {status.message}
          </p>
        )}
        {status.kind === 'failed' && status.message === null && <FieldErrorSummary fields={fields} errors={errors} />}
      </div>
    </form>
  );
}
