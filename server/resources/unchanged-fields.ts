import { isPlainObject, UNCHANGED_FIELDS_KEY, type ErrorBody, type JsonValue, type ResourceRecord } from '../../shared';
import { HttpError } from '../http/http-error';
import type { Field } from './field';

/** The precondition of a record save: fields and the values the client loaded of them (UNCHANGED_FIELDS_KEY). */
export type UnchangedFields = Readonly<Record<string, JsonValue>>;

export const UNCHANGED_FIELDS_MESSAGES = {
  notAnObject: `${UNCHANGED_FIELDS_KEY} must be an object: each field changed, with the value it had when loaded.`,
  unknownFields: (names: readonly string[]) =>
    `${UNCHANGED_FIELDS_KEY} names fields this resource does not have: ${names.join(', ')}.`,
  changed: (labels: readonly string[]) =>
    `Not saved: since you loaded this record, someone saved another value of ${labels.join(', ')}. Saving yours ` +
    `would replace theirs.`,
  field: 'Someone saved another value of this field since you loaded it.',
} as const;

/**
 * The 409 of a save whose precondition no longer holds: which fields moved (`fields`, one message each) and the record
 * as stored now (ErrorBody `storedRecord`), so that a form can show their values and save again knowingly.
 */
export class ChangedFieldsError extends HttpError {
  constructor(
    message: string,
    fields: Record<string, string>,
    readonly storedRecord: ResourceRecord,
  ) {
    super('conflict', message, fields);
    this.name = 'ChangedFieldsError';
  }

  override toBody(): ErrorBody {
    const body = super.toBody();
    body.error.storedRecord = { ...this.storedRecord };
    return body;
  }
}

/**
 * Splits the precondition off a `PUT` body: the field values to save, and the loaded values to find still stored (null
 * when the body has none). Throws 400 for a precondition that is not an object of this resource's fields.
 */
export function takeUnchangedFields(
  fields: ReadonlyMap<string, Field>,
  body: unknown,
): { values: unknown; unchanged: UnchangedFields | null } {
  if (!isPlainObject(body) || !Object.hasOwn(body, UNCHANGED_FIELDS_KEY)) return { values: body, unchanged: null };
  const { [UNCHANGED_FIELDS_KEY]: unchanged, ...values } = body;
  if (!isPlainObject(unchanged)) throw HttpError.invalidRequest(UNCHANGED_FIELDS_MESSAGES.notAnObject);
  const unknown = Object.keys(unchanged).filter((name) => !fields.has(name));
  if (unknown.length > 0) throw HttpError.invalidRequest(UNCHANGED_FIELDS_MESSAGES.unknownFields(unknown));
  return { values, unchanged: unchanged as UnchangedFields };
}

/**
 * Throws ChangedFieldsError when a field of `unchanged` holds another value in `stored` than the one loaded. Run in
 * the write (RecordSource.update's change), so that no save of the same field lands between the check and the write.
 * Null and absent are the same value (a field never set reads as null); fields hold scalars, compared exactly.
 * A field this save sets (`saved`: the names the body gives, `next`: the record it writes) that already holds the
 * value it sets has not moved away from it: the save replaces nothing of anyone's. That is the save itself sent again
 * (a proxy resends a PUT whose host dropped the connection after writing it, nginx's proxy_next_upstream), which then
 * answers as the first did instead of a 409 naming the user's own value as someone else's.
 */
export function assertUnchanged(
  fields: ReadonlyMap<string, Field>,
  unchanged: UnchangedFields,
  stored: ResourceRecord,
  saving: { saved: ReadonlySet<string>; next: Readonly<Record<string, JsonValue | undefined>> },
): void {
  const same = (a: JsonValue | undefined, b: JsonValue | undefined) =>
    JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const moved = Object.keys(unchanged).filter(
    (name) =>
      !same(stored[name], unchanged[name]) && !(saving.saved.has(name) && same(stored[name], saving.next[name])),
  );
  if (moved.length === 0) return;
  const labels = moved.map((name) => fields.get(name)?.label ?? name);
  throw new ChangedFieldsError(
    UNCHANGED_FIELDS_MESSAGES.changed(labels),
    Object.fromEntries(moved.map((name) => [name, UNCHANGED_FIELDS_MESSAGES.field])),
    stored,
  );
}
