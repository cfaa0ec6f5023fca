import { useEffect, useRef } from 'react';
import type { FieldItem, JsonValue, ResourceRecord } from '../../shared';
import { ApiError } from '../core';
import { formValues, sameValues } from './form-values';

/** A save refused by the server: fields this form changed that someone else saved other values of since it loaded. */
export interface SaveConflict {
  fields: readonly FieldItem[];
  /** The record as stored now (ErrorBody `storedRecord`). */
  stored: ResourceRecord;
  /** The same, as the form holds values. */
  theirs: Record<string, JsonValue>;
}

/**
 * The conflict a failed save is, when it is one: the server refused it (409 with `storedRecord`) because fields it
 * changed hold other values than the form loaded (the save's `$ifUnchanged`, checked in the write, so on every host
 * and for saves landing in the same instant). Fields someone else set to the very value this form saves are left
 * out: `fields` empty means the save can go again, expecting what is stored now. Null for any other failure.
 */
export function saveConflictOf(
  error: unknown,
  fields: readonly FieldItem[],
  values: Readonly<Record<string, JsonValue>>,
): SaveConflict | null {
  if (!(error instanceof ApiError) || error.status !== 409 || !error.storedRecord) return null;
  const stored = error.storedRecord;
  const theirs = formValues(fields, stored);
  const moved = fields.filter((field) => Object.hasOwn(error.fields, field.name));
  return { fields: moved.filter((field) => !sameValues([field], theirs, values)), stored, theirs };
}

/** What a refused save shows: which fields, and the two ways on (keep theirs, or save these values over them). */
export function SaveConflictNotice({
  conflict,
  onKeepTheirs,
  onSaveMine,
}: {
  conflict: SaveConflict;
  onKeepTheirs(): void;
  onSaveMine(): void;
}) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => notice.current?.focus(), [conflict]);
  const one = conflict.fields.length === 1;
  return (
    <div ref={notice} className="form-error" role="alert" tabIndex={-1} data-save-conflict="">
      <p>
        Not saved: since you opened this page, someone saved {one ? 'another value' : 'other values'} of{' '}
        {conflict.fields.map((field) => field.label).join(', ')}. Saving yours would replace theirs:
      </p>
      <ul>
        {conflict.fields.map((field) => (
          <li key={field.name}>
            {field.label}: theirs is {theirValue(conflict.theirs[field.name])}
          </li>
        ))}
      </ul>
      <p className="inline">
        <button type="button" className="button button--secondary button--small" onClick={onKeepTheirs}>
          Use their {one ? 'value' : 'values'}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={onSaveMine}>
          Save mine anyway
        </button>
      </p>
    </div>
  );
}

/** A stored value as the notice quotes it: text in quotes, an empty one said so, others as written. */
function theirValue(value: JsonValue | undefined): string {
  if (value === undefined || value === null || value === '') return 'empty';
  return typeof value === 'string' ? `“${value}”` : JSON.stringify(value);
}
