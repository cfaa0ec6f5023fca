/**
 * A text field's length as the server counts it: characters (code points), so an emoji is one, where the browser's
 * own `maxlength` counts it as two and stopped short of what the server takes.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import type { FieldItem, JsonValue } from '../../shared';
import { FieldControl } from './field-control';

afterEach(cleanup);

function Field({ field, initial }: { field: FieldItem; initial: string }) {
  const [value, setValue] = useState<JsonValue>(initial);
  return <FieldControl field={field} value={value} onChange={setValue} />;
}

const TITLE: FieldItem = { type: 'field', name: 'title', label: 'Title', input: 'text', maxLength: 5 };
const NOTES: FieldItem = { type: 'field', name: 'notes', label: 'Notes', input: 'textarea', maxLength: 5 };

/** What the browser does as a key or a paste lands: the new value, the caret after what was inserted. */
function type(box: HTMLInputElement | HTMLTextAreaElement, value: string, caret: number) {
  const prototype = box instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')!.set!.call(box, value);
  box.setSelectionRange(caret, caret);
  fireEvent.input(box);
}

describe('a text field with a maximum length', () => {
  it.each([TITLE, NOTES])('takes as many characters as the server does, emoji counted once ($input)', (field) => {
    render(<Field field={field} initial="" />);
    const box = screen.getByLabelText(field.label) as HTMLInputElement;
    // Five emoji are ten UTF-16 units: the browser's maxlength would have stopped at two and a half.
    expect(box.hasAttribute('maxlength')).toBe(false);
    fireEvent.change(box, { target: { value: '🎉🎉🎉🎉🎉' } });
    expect(box.value).toBe('🎉🎉🎉🎉🎉');
    // More is cut at the limit, as maxlength cuts a paste.
    fireEvent.change(box, { target: { value: '🎉🎉🎉🎉🎉🎉x' } });
    expect(box.value).toBe('🎉🎉🎉🎉🎉');
  });

  it.each([TITLE, NOTES])(
    'keeps the text around a character typed into a full field, and the caret ($input)',
    (field) => {
      render(<Field field={field} initial="A🎉bcZ" />);
      const box = screen.getByLabelText(field.label) as HTMLInputElement;
      // X typed after the A: no room, so nothing is inserted; the Z stays, the caret after the A.
      type(box, 'AX🎉bcZ', 2);
      expect(box.value).toBe('A🎉bcZ');
      expect(box.selectionStart).toBe(1);
      // A paste over "bc": as much of it as there is room for, the rest of the text kept.
      type(box, 'A🎉xyzwZ', 'A🎉xyzw'.length);
      expect(box.value).toBe('A🎉xyZ');
      expect(box.selectionStart).toBe('A🎉xy'.length);
    },
  );

  it('refuses a letter typed beside the same letter where it was typed, and cuts a paste there', () => {
    render(<Field field={TITLE} initial="hello" />);
    const box = screen.getByLabelText('Title') as HTMLInputElement;
    // "l" typed after "he": the caret stays after "he", not after "hell".
    type(box, 'helllo', 3);
    expect(box.value).toBe('hello');
    expect(box.selectionStart).toBe(2);
    cleanup();
    render(<Field field={TITLE} initial="abc" />);
    const other = screen.getByLabelText('Title') as HTMLInputElement;
    // "bcd" pasted after "a": as much of it as there is room for, where it was pasted.
    type(other, 'abcdbc', 4);
    expect(other.value).toBe('abcbc');
    expect(other.selectionStart).toBe(3);
  });

  it.each([TITLE, NOTES])(
    'never cuts a character in two, and says when what was pasted was shortened ($input)',
    (field) => {
      render(<Field field={field} initial="" />);
      const box = screen.getByLabelText(field.label) as HTMLInputElement;
      const note = () => document.getElementById(`field-${field.name}-shortened`);
      expect([note()?.getAttribute('role'), note()?.textContent]).toEqual(['status', '']);
      // A flag is two code points, as the server counts: four letters and the flag are six, so the flag is left out
      // whole rather than cut to its first half.
      fireEvent.change(box, { target: { value: 'abcd🇫🇷' } });
      expect(box.value).toBe('abcd');
      expect(note()?.textContent).toBe('Shortened to the 5 characters this field takes.');
      // A letter and the accent typed with it (two code points) go together or not at all.
      fireEvent.change(box, { target: { value: 'abc' } });
      expect(note()?.textContent).toBe('');
      fireEvent.change(box, { target: { value: 'abcde\u0301' } });
      expect(box.value).toBe('abcd');
      fireEvent.change(box, { target: { value: 'ab🇫🇷' } });
      expect([box.value, note()?.textContent]).toEqual(['ab🇫🇷', '']);
    },
  );

  it('leaves a value saved longer than the limit as it is, for the person to shorten', () => {
    render(<Field field={TITLE} initial="longer than five" />);
    const box = screen.getByLabelText('Title') as HTMLInputElement;
    fireEvent.change(box, { target: { value: 'longer than five!' } });
    expect(box.value).toBe('longer than five!');
  });
});
