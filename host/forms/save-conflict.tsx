import { useEffect, useRef } from 'react';
import type { FieldItem, JsonValue, RecordPayload } from '../../shared';
import { ApiError, type ApiClient } from '../core';

type Values = Readonly<Record<string, JsonValue>>;

/** A save held back: fields this form changed that someone else saved other values of since the form loaded. */
export interface SaveConflict {
  fields: readonly FieldItem[];
  /** The record's values as stored now, as the form holds values. */
  theirs: Record<string, JsonValue>;
}

/**
 * Asked just before an edit is saved: the fields the form changed (`values` against `loaded`) whose stored value is
 * no longer the one loaded. A save sends only changed fields, so another's change to any other field is kept; a
 * change to the same field would be replaced without a word, so it is shown instead. Null when there is none, or
 * when the record cannot be read now (the save then answers as it would have: deleted, signed out, unreachable).
 * A save landing between this read and the form's own still wins: this guards people, not the database.
 */
export async function findSaveConflict(
  client: ApiClient,
  recordPath: string,
  fields: readonly FieldItem[],
  loaded: Values,
  values: Values,
  asFormValues: (record: RecordPayload['record']) => Record<string, JsonValue>,
): Promise<SaveConflict | null> {
  const same = (a: JsonValue | undefined, b: JsonValue | undefined) =>
    JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const changed = fields.filter((field) => !same(values[field.name], loaded[field.name]));
  if (changed.length === 0) return null;
  let theirs: Record<string, JsonValue>;
  try {
    theirs = asFormValues((await client.get<RecordPayload>(recordPath)).record);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
  const conflicting = changed.filter(
    (field) => !same(theirs[field.name], loaded[field.name]) && !same(theirs[field.name], values[field.name]),
  );
  return conflicting.length > 0 ? { fields: conflicting, theirs } : null;
}

/** What a held-back save shows: which fields, and the two ways on (keep theirs, or save these values over them). */
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
  const labels = conflict.fields.map((field) => field.label);
  return (
    <div ref={notice} className="form-error" role="alert" tabIndex={-1} data-save-conflict="">
      <p>
        Not saved: since you opened this page, someone saved other values of {labels.join(', ')}. Saving yours would
        replace theirs.
      </p>
      <p className="inline">
        <button type="button" className="button button--secondary button--small" onClick={onKeepTheirs}>
          Use their {labels.length === 1 ? 'value' : 'values'}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={onSaveMine}>
          Save mine anyway
        </button>
      </p>
    </div>
  );
}
