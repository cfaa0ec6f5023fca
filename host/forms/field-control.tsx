import { useRef, useState } from 'react';
import type { ChangeEvent, CompositionEvent } from 'react';
import type { FieldItem, JsonValue, ResourceRecord } from '../../shared';
import { NumberBox } from './number-box';
import { RelatedRecordPicker } from './related-record-picker';

export interface FieldControlProps {
  field: FieldItem;
  value: JsonValue | undefined;
  error?: string | undefined;
  /** For a relation field: the related records at hand (the record's relation), named without a request. */
  related?: readonly ResourceRecord[] | undefined;
  onChange(value: JsonValue): void;
}

function text(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * What a text box holds once `typed` replaced `before` within `max` characters as the server counts them (code
 * points: an emoji is one), where the browser's `maxlength` counts UTF-16 units (an emoji two) and stopped short of
 * what the server takes. As `maxlength` does: what was inserted is cut to the room left (the text around it kept, the
 * caret after what was kept), and a value already longer (saved before the limit was lowered) is left to be shortened.
 */
function withinLength(
  typed: string,
  before: string,
  max: number | undefined,
  caret: number,
): { value: string; caret: number } | null {
  if (max === undefined || typed.length <= max || [...typed].length <= max || [...before].length > max) return null;
  // The browser leaves the caret after what was inserted: what follows it is the end of the text before.
  let end = typed.length - caret;
  if (end < 0 || end > before.length || !before.endsWith(typed.slice(caret))) end = 0;
  // The insertion starts where the text before stops being the same, at most where that end began (a letter typed
  // beside the same letter is inserted where the person typed it, not where the two texts first differ).
  let start = 0;
  while (start < before.length - end && start < typed.length - end && before[start] === typed[start]) start++;
  // Never between the two halves of a character outside the BMP.
  if (start > 0 && /[\uD800-\uDBFF]/.test(typed[start - 1]!)) start--;
  const head = typed.slice(0, start);
  const tail = typed.slice(typed.length - end);
  const room = Math.max(0, max - [...head].length - [...tail].length);
  const kept = charactersWithin(typed.slice(start, typed.length - end), room);
  return { value: head + kept + tail, caret: head.length + kept.length };
}

const CHARACTERS = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The first characters of `text` (as a person sees them: a flag, a letter with its accent) within `room` code points
 * (as the server counts): a character that does not fit whole is left out, never cut in two (half a flag, a letter
 * without the accent typed with it).
 */
function charactersWithin(text: string, room: number): string {
  let kept = '';
  let used = 0;
  for (const { segment } of CHARACTERS.segment(text)) {
    const size = [...segment].length;
    if (used + size > room) break;
    kept += segment;
    used += size;
  }
  return kept;
}

type TextBox = HTMLInputElement | HTMLTextAreaElement;

/**
 * A text box's change, kept within the field's maximum length (withinLength), its caret where the person typed;
 * `cut`: whether what was typed or pasted did not fit whole.
 */
function fitted(box: TextBox, before: string, max: number | undefined): { value: string; cut: boolean } {
  const fit = withinLength(box.value, before, max, box.selectionEnd ?? box.value.length);
  if (fit === null) return { value: box.value, cut: false };
  // Set here, as the browser's own refusal would: React then finds the box as it is and leaves the caret alone.
  box.value = fit.value;
  box.setSelectionRange(fit.caret, fit.caret);
  return { value: fit.value, cut: true };
}

/**
 * A text box's handlers, its changes kept within the field's maximum length (fitted), except while an input method
 * composes: the person sees what they type (the pinyin "nihao" for 你好) and chooses, and a box cut under the input
 * method would stop the pinyin at the room left and lose the choice. What it commits is fitted against the text from
 * before the composition, as the browser's own `maxlength` cuts a composition once it ends.
 */
function useFittedText(value: string, max: number | undefined, onChange: (value: JsonValue) => void) {
  const beforeComposition = useRef<string | null>(null);
  // Whether the last change was cut to the room left: said under the box, or a paste shortened would go unnoticed.
  const [cut, setCut] = useState(false);
  const take = (change: { value: string; cut: boolean }) => {
    setCut(change.cut);
    onChange(change.value);
  };
  return {
    cut,
    box: {
      value,
      onCompositionStart: (event: CompositionEvent<TextBox>) => {
        beforeComposition.current = event.currentTarget.value;
      },
      onChange: (event: ChangeEvent<TextBox>) =>
        beforeComposition.current === null ? take(fitted(event.target, value, max)) : onChange(event.target.value),
      onCompositionEnd: (event: CompositionEvent<TextBox>) => {
        const before = beforeComposition.current;
        beforeComposition.current = null;
        if (before !== null) take(fitted(event.currentTarget, before, max));
      },
    },
  };
}

/** What a text box says when what was typed or pasted was cut to its maximum length. */
export function shortenedMessage(max: number): string {
  return `Shortened to the ${max} characters this field takes.`;
}

/** The id of a field's control, which its label, help, error and the error summary refer to. */
export function fieldControlId(name: string): string {
  return `field-${name}`;
}

/** One ordinary form field: label, the input its `input` type asks for, help, and the server's error. */
export function FieldControl({ field, value, error, related, onChange }: FieldControlProps) {
  const id = fieldControlId(field.name);
  const helpId = field.help ? `${id}-help` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [helpId, errorId].filter(Boolean).join(' ') || undefined;
  const { box: textBox, cut } = useFittedText(text(value), field.maxLength, onChange);
  const shortenedId = `${id}-shortened`;
  const common = {
    id,
    name: field.name,
    required: field.required ?? false,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  };

  let control;
  switch (field.input) {
    case 'textarea':
      // Each box takes its direction from its text (`dir="auto"`): a Hebrew or Arabic title typed into a box set
      // left to right showed "מה חדש?" with its question mark at the wrong end.
      control = <textarea {...common} className="input input--textarea" rows={6} dir="auto" {...textBox} />;
      break;
    case 'select':
      control = (
        <select {...common} className="input" value={text(value)} onChange={(event) => onChange(event.target.value)}>
          <option value="">{field.required ? 'Choose…' : '—'}</option>
          {(field.options ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    case 'checkbox':
      control = (
        <input
          {...common}
          type="checkbox"
          className="checkbox"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
      );
      break;
    case 'relation':
      control = (
        <RelatedRecordPicker
          id={id}
          label={field.label}
          name={field.name}
          resource={field.resource ?? ''}
          value={typeof value === 'number' ? value : null}
          known={related}
          noneLabel={field.required ? 'Search to choose…' : 'None: search to choose'}
          required={field.required}
          invalid={Boolean(error)}
          describedBy={describedBy}
          onChange={onChange}
        />
      );
      break;
    case 'number':
      control = (
        <NumberBox
          id={id}
          name={field.name}
          required={field.required ?? false}
          value={value}
          describedBy={describedBy}
          invalid={Boolean(error)}
          onChange={onChange}
        />
      );
      break;
    default:
      // A date is the browser's own day picker, by keyboard too; its value is YYYY-MM-DD, '' when cleared.
      control = (
        <input
          {...common}
          type={field.input === 'email' || field.input === 'date' ? field.input : 'text'}
          className="input"
          // Free text, as the text area above; an address or a day reads left to right in any script.
          dir={field.input === 'email' || field.input === 'date' ? undefined : 'auto'}
          {...textBox}
        />
      );
  }

  return (
    <div className={error ? 'field field--invalid' : 'field'} data-field={field.name}>
      <label className="field__label" htmlFor={id}>
        {field.label}
        {field.required && (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {control}
      {field.help && (
        <p className="field__help" id={helpId}>
          {field.help}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
      {field.maxLength !== undefined && (
        // There before it speaks, so that it is announced (a region added with its text often is not).
        <p className={cut ? 'field__help' : 'visually-hidden'} role="status" id={shortenedId}>
          {cut ? shortenedMessage(field.maxLength) : ''}
        </p>
      )}
    </div>
  );
}
