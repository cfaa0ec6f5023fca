import type { FieldItem, JsonValue } from '../../shared';

/** A record as loaded or stored: its fields by name, absent where never set. */
export type StoredValues = Readonly<Record<string, JsonValue | undefined>>;

/** A new record's values before anything is typed: every field empty. */
export const NEW_RECORD: StoredValues = Object.freeze({});

/** What the form's controls hold for a record: an unset field as its control's empty value. */
export function formValues(fields: readonly FieldItem[], record: StoredValues): Record<string, JsonValue> {
  const values: Record<string, JsonValue> = {};
  for (const field of fields) {
    const value = record[field.name];
    values[field.name] =
      value === undefined ? (field.input === 'checkbox' ? false : field.input === 'relation' ? null : '') : value;
  }
  return values;
}

/** Whether two sets of form values agree on every one of `fields` (an absent value is null). */
export function sameValues(
  fields: readonly FieldItem[],
  a: Readonly<Record<string, JsonValue>>,
  b: Readonly<Record<string, JsonValue>>,
): boolean {
  return fields.every((field) => JSON.stringify(a[field.name] ?? null) === JSON.stringify(b[field.name] ?? null));
}
