import { isCalendarDay, isPlainObject, type JsonObject, type JsonValue } from '../../shared';
import { HttpError } from '../http/http-error';
import type { Field } from './field';
import { hasLoneSurrogate } from './lone-surrogate';
import { isRecordId } from './record-id';

/** Per-field messages of a refused update; constants so the host and tests can rely on them. */
export const FIELD_MESSAGES = {
  required: 'This field is required.',
  unknown: 'Unknown field.',
  idChange: 'The id of a record cannot be changed.',
  idOnCreate: 'The id of a new record is given by the server.',
  notText: 'Must be text.',
  nulCharacter: 'Must not contain the character U+0000.',
  loneSurrogate: 'Must not contain half of a character (a lone UTF-16 surrogate).',
  lineBreak: 'Must be one line: this field has no room for a line break.',
  notNumber: 'Must be a number.',
  notBoolean: 'Must be true or false.',
  notEmail: 'Must be an email address.',
  notAnOption: 'Must be one of the listed options.',
  notADay: 'Must be a day as YYYY-MM-DD (for example 2024-03-15), one that the calendar has.',
  notARecordId: 'Must be the id of a record (a whole number from 1).',
  noRelatedRecord: (recordLabel: string, id: number) =>
    `There is no ${recordLabel} ${id}: it was deleted, or never existed. Choose another.`,
  tooLong: (max: number) => `Must be at most ${max} characters.`,
} as const;

export const INVALID_RECORD_MESSAGE = 'Some fields are not valid.';
export const RECORD_BODY_MESSAGE = 'Send the field values as a JSON object.';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** What ends a line: carriage return, line feed, and Unicode's line and paragraph separators. */
const LINE_BREAK = /[\r\n\u2028\u2029]/;

/** The kinds whose value is no text, for which '' (a control left empty) is taken as none, as null is. */
const EMPTIED_AS_TEXT: ReadonlySet<Field['input']> = new Set(['date', 'number']);

/**
 * Checks the body of `PUT .../records/:id` against the resource's fields and returns the new record data: the
 * current data with the given fields replaced (`null` clears an optional field). Throws 400 `invalid_request` with
 * `error.fields` naming every problem, including fields the resource does not have. `recordId` null: the body of
 * `POST .../records`, a new record (`current` is then `{}`), which cannot name an id. `missingRelated`: the relation
 * fields whose record was looked for and not found (see missingRelatedRecords), reported with the rest.
 */
export function validateRecordUpdate(
  fields: ReadonlyMap<string, Field>,
  recordId: number | null,
  body: unknown,
  current: Readonly<Record<string, JsonValue | undefined>>,
  missingRelated: Readonly<Record<string, string>> = {},
): JsonObject {
  if (!isPlainObject(body)) throw HttpError.invalidRequest(RECORD_BODY_MESSAGE);
  // No prototype: a body key named `__proto__` must be reported like any other unknown field, not swallowed.
  const problems = Object.create(null) as Record<string, string>;
  const next: JsonObject = {};
  for (const [key, value] of Object.entries(current)) {
    if (key !== 'id' && value !== undefined) next[key] = value;
  }

  for (const key of Object.keys(body)) {
    // Text in one Unicode form (NFC), whatever the keyboard or the paste gave: "é" typed as e and a combining accent
    // (macOS, some input methods) counted two characters against a maximum, sorted after "z" and was not found by a
    // title search typed with the one-character "é"; stored composed, it is the same text as the other's.
    const given = body[key] as JsonValue | undefined;
    const value = typeof given === 'string' ? given.normalize('NFC') : given;
    if (key === 'id') {
      if (recordId === null) problems.id = FIELD_MESSAGES.idOnCreate;
      else if (value !== recordId) problems.id = FIELD_MESSAGES.idChange;
      continue;
    }
    const field = fields.get(key);
    if (!field) {
      problems[key] = FIELD_MESSAGES.unknown;
      continue;
    }
    const problem = checkValue(field, value) ?? (Object.hasOwn(missingRelated, key) ? missingRelated[key] : null);
    if (problem) {
      problems[key] = problem;
      continue;
    }
    // An emptied day or number is none, as null is: the record does not keep a '' that lists would have to read as
    // none (a form sends a field left empty as its control's empty value).
    if (value === null || value === undefined || (EMPTIED_AS_TEXT.has(field.input) && value === '')) delete next[key];
    else next[key] = value;
  }

  for (const field of fields.values()) {
    if (field.required && problems[field.name] === undefined && isEmpty(next[field.name])) {
      problems[field.name] = FIELD_MESSAGES.required;
    }
  }

  if (Object.keys(problems).length > 0) throw HttpError.invalidRequest(INVALID_RECORD_MESSAGE, problems);
  return next;
}

function checkValue(field: Field, value: unknown): string | null {
  if (value === null || value === undefined) return null; // emptiness is judged against `required` afterwards
  switch (field.input) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'select': {
      if (typeof value !== 'string') return FIELD_MESSAGES.notText;
      // PostgreSQL's text and jsonb cannot hold U+0000 nor a lone surrogate (`"\ud800"`, which JSON.parse lets
      // through): refused on both engines, so a record means the same on each.
      if (value.includes('\u0000')) return FIELD_MESSAGES.nulCharacter;
      if (hasLoneSurrogate(value)) return FIELD_MESSAGES.loneSurrogate;
      // A one-line box drops a line break it is given: kept, the record would read one way on its page and in a CSV,
      // and lose it silently at its next edit. A text area (`textarea`) holds lines.
      if (field.input !== 'textarea' && LINE_BREAK.test(value)) return FIELD_MESSAGES.lineBreak;
      if (field.maxLength !== undefined && [...value].length > field.maxLength) {
        return FIELD_MESSAGES.tooLong(field.maxLength);
      }
      if (value === '') return null;
      if (field.input === 'email' && !EMAIL.test(value)) return FIELD_MESSAGES.notEmail;
      if (field.input === 'select' && !field.options?.includes(value)) return FIELD_MESSAGES.notAnOption;
      return null;
    }
    case 'number':
      // '' is an empty number, as a new record's form sends a number left empty; judged against `required` afterwards.
      if (value === '') return null;
      return typeof value === 'number' && Number.isFinite(value) ? null : FIELD_MESSAGES.notNumber;
    case 'checkbox':
      return typeof value === 'boolean' ? null : FIELD_MESSAGES.notBoolean;
    case 'date':
      // '' is an empty date, as a cleared date input sends it; judged against `required` afterwards.
      return typeof value === 'string' && (value === '' || isCalendarDay(value)) ? null : FIELD_MESSAGES.notADay;
    case 'relation':
      // Whether the record exists is asked of the store beforehand (missingRelatedRecords).
      return isRecordId(value) ? null : FIELD_MESSAGES.notARecordId;
  }
}

/**
 * Whether a required field is left without a value: none, or text of nothing to read (spaces, and the invisible
 * format characters such as a zero-width space or a direction mark, which a paste brings along unseen).
 */
function isEmpty(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || (typeof value === 'string' && NOTHING_TO_READ.test(value));
}

const NOTHING_TO_READ = /^[\s\p{Cf}]*$/u;
