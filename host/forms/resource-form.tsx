// Over 300 lines: one form and its form slots, whose state (values, errors, draft, save, conflicts) is read by all of it.
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
  RestorableRecord,
} from '../../shared';
import { UNCHANGED_FIELDS_KEY } from '../../shared';
import { ApiError, FormSlot, useApiClient, useSession } from '../core';
import { useUnsavedChanges } from '../hooks/unsaved-changes';
import { DeletedMeanwhileNotice } from './deleted-meanwhile-notice';
import { FieldControl, fieldControlId } from './field-control';
import { forgetDraft, keepDraft, readDraft, type DraftOwner } from './record-draft';
import { CREATE_UNANSWERED_MESSAGE, useCreationKey } from './creation-key';
import { warnUnknownField } from './unknown-field-warning';
import { FieldErrorSummary } from './field-error-summary';
import { focusUnchosenPicker, UNCHOSEN_MESSAGE } from './related-record-picker';
import { ReadOnlyRoleNotice, useMayChangeRecords } from './read-only-role';
import { formValues, NEW_RECORD, sameValues, type StoredValues } from './form-values';
import { saveConflictOf, SaveConflictNotice, type SaveConflict } from './save-conflict';

export interface ResourceFormProps {
  definition: ResourceDefinition;
  /** The record edited; none: a new record, created (POST) by the first save. */
  record?: ResourceRecord;
  /** The record's relations as its page has them: what its relation fields point at, named without a request. */
  relations?: readonly RelationBlock[];
  /** After a save; after a create, once the form holds nothing unsaved (so a navigation away is not held back). */
  onSaved?(payload: RecordPayload): void;
  /**
   * When a refused save shows the record as stored now (saved meanwhile by someone else): the page's heading and
   * breadcrumbs name it as it is, not as it was loaded.
   */
  onStored?(record: ResourceRecord): void;
}

/**
 * The form's values after a refused save, on top of the record as stored now: fields this form did not change and
 * (when keeping theirs) the conflicting ones take the stored values; the other changes stay, to be saved.
 */
function rebased(
  fields: readonly FieldItem[],
  conflict: SaveConflict,
  values: Readonly<Record<string, JsonValue>>,
  saved: Readonly<Record<string, JsonValue>>,
  keepTheirs: boolean,
): Record<string, JsonValue> {
  const next = { ...values };
  for (const field of fields) {
    const conflicting = conflict.fields.includes(field);
    if ((keepTheirs && conflicting) || sameValues([field], values, saved)) {
      next[field.name] = conflict.theirs[field.name] ?? null;
    }
  }
  return next;
}

/** `failed` with a message when the save failed as a whole; field errors are listed from `errors` instead. */
type Status =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'failed'; message: string | null }
  | { kind: 'deleted'; message: string; deleted: RestorableRecord }
  | { kind: 'restored' }
  | { kind: 'conflict'; conflict: SaveConflict };

/**
 * The record form: the resource's items in order, an ordinary field or a slot item (through the global registry,
 * with `resource`, `formContext` and its props). Saving PUTs the field values and shows the server's `error.fields`
 * by name, with focus on the first field to fix. Unsaved changes are guarded (see unsaved-changes), and kept in
 * the tab when the session ends mid-edit, to be offered back once the same user signs in again.
 */
export function ResourceForm({ definition, record, relations, onSaved, onStored }: ResourceFormProps) {
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
  const [restoredDraft] = useState(() => (draftOwner ? readDraft(draftOwner) : null));
  // The record as last loaded or saved: what a save expects each field it changes to still hold on the server. A
  // draft kept over a sign-in puts back the values its fields were changed from: saved meanwhile, they conflict.
  const [loaded, setLoaded] = useState<StoredValues>(() => ({ ...(record ?? NEW_RECORD), ...restoredDraft?.base }));
  const saved = useMemo(() => formValues(fields, loaded), [fields, loaded]);
  const [created, setCreated] = useState<RecordPayload | null>(null);
  const [values, setValues] = useState(() => ({ ...saved, ...restoredDraft?.changes }));
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [focusFirstError, setFocusFirstError] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  const saving = useRef(false);
  const creationKey = useCreationKey(restoredDraft?.creation ?? null);
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

  const latest = useRef({ values, loaded, saved, draftOwner, lastCreation: creationKey.lastSent });
  latest.current = { values, loaded, saved, draftOwner, lastCreation: creationKey.lastSent };
  useEffect(
    () =>
      onExpire(() => {
        // Only the fields changed, with what each was changed from: the others may be saved by someone meanwhile.
        const { values: current, loaded: from, saved: stored, draftOwner: owner, lastCreation } = latest.current;
        const changed = fields.filter((field) => !sameValues([field], current, stored));
        if (changed.length === 0 || !owner) return;
        // A create sent whose answer was lost: pressed again after signing in, the same create (not a second record).
        const creation = record ? null : lastCreation();
        keepDraft(owner, {
          ...(creation === null ? {} : { creation }),
          changes: Object.fromEntries(changed.map((field) => [field.name, current[field.name] ?? null])),
          // A field the record never had stays absent: the form shows it empty, as before.
          base: Object.fromEntries(
            changed.flatMap((field) => {
              const value = from[field.name];
              return value === undefined ? [] : [[field.name, value]];
            }),
          ),
        });
      }),
    [onExpire, fields, record],
  );

  useEffect(() => {
    if (focusFirstError === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusFirstError]);

  const setValue = useCallback(
    (name: string, value: JsonValue) => {
      if (!fields.some((field) => field.name === name)) warnUnknownField(definition.name, name);
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => {
        if (!(name in current)) return current;
        const { [name]: _cleared, ...rest } = current;
        return rest;
      });
      setStatus((current) => (current.kind === 'saved' ? { kind: 'idle' } : current));
    },
    [fields, definition.name],
  );

  const formContext = useMemo<FormContext>(
    () => ({ mode, values, errors, setValue }),
    [mode, values, errors, setValue],
  );

  /**
   * Saves `values` over `base` (the record they were edited from): an edit sends only the fields it changed, each with
   * the value it had in `base` (UNCHANGED_FIELDS_KEY), so the server keeps the other fields as stored (a change saved
   * meanwhile to one this form left alone is kept, and shown once this save answers) and refuses the save, atomically,
   * when one of them was saved since: the conflict is shown instead of replacing it.
   */
  const save = async (base: StoredValues, values: Record<string, JsonValue>, retried = false): Promise<void> => {
    const from = formValues(fields, base);
    const body: RecordUpdateRequest = {};
    const unchanged: Record<string, JsonValue> = {};
    for (const field of fields) {
      if (record && sameValues([field], values, from)) continue;
      body[field.name] = values[field.name] ?? null;
      unchanged[field.name] = base[field.name] ?? null;
    }
    if (record) body[UNCHANGED_FIELDS_KEY] = unchanged;
    const records = `/api/resources/${encodeURIComponent(definition.name)}/records`;
    try {
      const payload = record
        ? await client.put<RecordPayload>(`${records}/${record.id}`, body)
        : await client.post<RecordPayload>(records, body, undefined, { idempotencyKey: creationKey.keyFor(body) });
      setErrors({});
      setLoaded(payload.record);
      setValues(formValues(fields, payload.record));
      setStatus({ kind: 'saved' });
      if (record) onSaved?.(payload);
      else setCreated(payload);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        expire();
        return;
      }
      const conflict = saveConflictOf(error, fields, values);
      if (conflict) {
        const next = rebased(fields, conflict, values, from, false);
        setLoaded(conflict.stored);
        onStored?.(conflict.stored);
        setValues(next);
        // Saved since, but to the very values this form saves: nothing to ask, it goes again on top of theirs.
        if (conflict.fields.length === 0 && !retried) return save(conflict.stored, next, true);
        setErrors({});
        setStatus({ kind: 'conflict', conflict });
        return;
      }
      if (error instanceof ApiError && error.deletedRecord) {
        setStatus({ kind: 'deleted', message: error.message, deleted: error.deletedRecord });
        return;
      }
      const fieldErrors = error instanceof ApiError ? error.fields : {};
      setErrors(fieldErrors);
      const count = Object.keys(fieldErrors).length;
      // No answer of the server's own (unreachable, cut off, a proxy's page for a host gone): the create may be made.
      const unanswered = error instanceof ApiError && error.request !== null;
      let message: string | null = error instanceof ApiError ? error.message : 'Could not save.';
      if (count > 0) message = null;
      else if (unanswered && !record) message = CREATE_UNANSWERED_MESSAGE;
      setStatus({ kind: 'failed', message });
      if (count > 0) setFocusFirstError((value) => value + 1);
    }
  };

  // The refusal of a name typed and not chosen holds while a picker holds one: once none does (chosen, emptied, or
  // given back with Escape), it goes, where it stayed to be found by a screen reader until the next save.
  const refusedUnchosen = status.kind === 'failed' && status.message === UNCHOSEN_MESSAGE;
  useEffect(() => {
    const form = formRef.current;
    if (!refusedUnchosen || !form) return;
    const observer = new MutationObserver(() => {
      if (!form.querySelector('input[data-holds-unchosen="true"]')) setStatus({ kind: 'idle' });
    });
    observer.observe(form, { attributes: true, attributeFilter: ['data-holds-unchosen'], subtree: true });
    return () => observer.disconnect();
  }, [refusedUnchosen]);

  const submit = async (event?: FormEvent<HTMLFormElement>) => {
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
    try {
      await save(loaded, values);
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
          Your unsaved changes were kept while your session ended or changed. Review them, then save.
        </p>
      )}
      {/* A viewer reads the values: every control, the form slots' too, is disabled, as nothing could be saved. A box
          for that alone, no group: a screen reader announced a group with no name before the first field. */}
      <fieldset className="form__fields" disabled={!mayChange} role="none">
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
          <button
            type="submit"
            ref={submitButton}
            className="button button--primary"
            aria-disabled={status.kind === 'saving'}
          >
            {status.kind === 'saving' ? 'Saving…' : mode === 'create' ? 'Create' : 'Save'}
          </button>
        ) : (
          // A viewer: no Save to press (the server would refuse it), and why.
          <ReadOnlyRoleNotice />
        )}
        <p className="form__status" role="status">
          {status.kind === 'saved' && (mode === 'create' ? 'Created.' : 'Saved.')}
          {status.kind === 'restored' &&
            `The ${definition.recordLabel ?? 'record'} is back. Save to keep your changes.`}
        </p>
        {status.kind === 'conflict' && (
          <SaveConflictNotice
            conflict={status.conflict}
            onKeepTheirs={() => {
              // `loaded` is their record already (set with the conflict): their values become the form's.
              setValues((current) => rebased(fields, status.conflict, current, saved, true));
              setStatus({ kind: 'idle' });
              // The notice that had the focus goes: the first field that took their value gets it, in view (the
              // focus fell to the page's top, and a phone scrolled away from the form).
              const first = status.conflict.fields[0];
              const control = first ? document.getElementById(fieldControlId(first.name)) : null;
              (control ?? submitButton.current)?.focus();
            }}
            onSaveMine={() => void submit()}
          />
        )}
        {status.kind === 'deleted' && (
          <DeletedMeanwhileNotice
            message={status.message}
            deleted={status.deleted}
            onRestored={() => {
              setStatus({ kind: 'restored' });
              // The notice that had the focus goes: Save, beside the status saying what is left to do, takes it.
              submitButton.current?.focus();
            }}
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
