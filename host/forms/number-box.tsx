import { useState } from 'react';
import type { JsonValue } from '../../shared';

/** A number as written: digits, with one decimal point or comma (`3.5`, `3,5`, `-0,25`, `.5`), and an exponent. */
const NUMBER_TEXT = /^[-+−]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The number `text` says, null for an empty box, undefined for text that is no number. A comma is a decimal
 * separator, as half the world writes it: `<input type="number">` in an English page read `3,5` as 35 (a thousands
 * separator) and saved it so. Thousands separators are refused rather than guessed: `1.234` is a thousand in Berlin
 * and one and a bit in London.
 */
export function numberFromText(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!NUMBER_TEXT.test(trimmed)) return undefined;
  const parsed = Number(trimmed.replace('−', '-').replace(',', '.'));
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** What the box says under it while its text is no number. */
export const NOT_A_NUMBER_HINT =
  'Not a number: write digits with one decimal point or comma (3.5 or 3,5), without thousands separators.';

export interface NumberBoxProps {
  id: string;
  name: string;
  required: boolean;
  value: JsonValue | undefined;
  /** The field's own help and error, which the box is described by. */
  describedBy: string | undefined;
  invalid: boolean;
  onChange(value: JsonValue): void;
}

/**
 * A number field's box: text with the decimal keypad (`inputMode`), read by numberFromText. What is typed stays as
 * typed (a trailing `3,` while typing `3,5`); the form gets the number, null when empty, or the text itself when it is
 * no number, which the server refuses at the field (`Must be a number.`) and the box says at once.
 */
export function NumberBox({ id, name, required, value, describedBy, invalid, onChange }: NumberBoxProps) {
  const given = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const [typed, setTyped] = useState(given);
  // A value set from outside (a reset, a record loaded, a conflict's stored value) replaces what was typed.
  const [typedFor, setTypedFor] = useState<JsonValue | undefined>(value);
  if (typedFor !== value && numberFromText(typed) !== value) {
    setTyped(given);
    setTypedFor(value);
  }
  // A lone sign or separator is a number being typed, not yet a mistake to point out.
  const unread = numberFromText(typed) === undefined && !/^[-+−]?[.,]?$/.test(typed.trim());
  const hintId = `${id}-not-a-number`;
  return (
    <>
      <input
        id={id}
        name={name}
        required={required}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        className="input"
        value={typed}
        aria-invalid={invalid || unread ? true : undefined}
        aria-describedby={[describedBy, unread ? hintId : undefined].filter(Boolean).join(' ') || undefined}
        onChange={(event) => {
          const text = event.target.value;
          const number = numberFromText(text);
          const next = number === undefined ? text : number;
          setTyped(text);
          setTypedFor(next);
          onChange(next);
        }}
      />
      {unread && (
        <p className="field__error" id={hintId}>
          {NOT_A_NUMBER_HINT}
        </p>
      )}
    </>
  );
}
