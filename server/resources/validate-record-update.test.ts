import { HttpError } from '../http/http-error';
import { Field } from './field';
import { FIELD_MESSAGES, INVALID_RECORD_MESSAGE, validateRecordUpdate } from './validate-record-update';

const fields = new Map(
  [
    Field.text('title', { required: true, maxLength: 10 }),
    Field.text('label', { required: true }),
    Field.select('group', { options: ['news', 'guides'] }),
    Field.textarea('body'),
    Field.email('email'),
    Field.number('rank'),
    Field.checkbox('pinned'),
  ].map((field) => [field.name, field] as const),
);
const current = { id: 7, title: 'Old', label: 'L', group: 'news', authorId: 3 };

function problems(body: unknown): Record<string, string> | undefined {
  try {
    validateRecordUpdate(fields, 7, body, current);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).code).toBe('invalid_request');
    return (error as HttpError).fields;
  }
  return undefined;
}

describe('validateRecordUpdate', () => {
  it('refuses U+0000 in every text field, naming each field', () => {
    expect(problems({ title: 'a\u0000b', body: '\u0000', email: 'a\u0000@b.org', group: '\u0000' })).toEqual({
      title: FIELD_MESSAGES.nulCharacter,
      body: FIELD_MESSAGES.nulCharacter,
      email: FIELD_MESSAGES.nulCharacter,
      group: FIELD_MESSAGES.nulCharacter,
    });
  });

  it('refuses a lone UTF-16 surrogate in every text field, naming each field, and keeps whole pairs', () => {
    expect(problems({ title: 'a\ud800', body: '\udc00b', email: '\ud83d@b.org', group: '\ude00' })).toEqual({
      title: FIELD_MESSAGES.loneSurrogate,
      body: FIELD_MESSAGES.loneSurrogate,
      email: FIELD_MESSAGES.loneSurrogate,
      group: FIELD_MESSAGES.loneSurrogate,
    });
    expect(problems({ title: 'Ok \ud83d\ude00' })).toBeUndefined();
  });

  it('takes a required field holding only spaces or invisible format characters as empty', () => {
    for (const label of [' ', '\u200b', '\u00a0\u200d', '\u200e\t']) {
      expect([label, problems({ label })]).toEqual([label, { label: FIELD_MESSAGES.required }]);
    }
    expect(problems({ label: '\u200bx' })).toBeUndefined();
  });

  it('refuses a line break in a one-line field (text, email, select), and keeps the lines of a text area', () => {
    expect(problems({ title: 'Line1\nLine2', label: 'a\r\nb', email: 'a\u2028@b.org', group: 'news\n' })).toEqual({
      title: FIELD_MESSAGES.lineBreak,
      label: FIELD_MESSAGES.lineBreak,
      email: FIELD_MESSAGES.lineBreak,
      group: FIELD_MESSAGES.lineBreak,
    });
    expect(problems({ body: 'First line\nSecond line\r\nThird\u2029' })).toBeUndefined();
  });

  it('keeps text composed (NFC), so a letter typed with a combining accent counts, sorts and matches as one', () => {
    // "Cafe" and a combining acute accent, ten characters composed, eleven code points as typed.
    const decomposed = 'Cafe\u0301 menu';
    expect([...decomposed].length).toBe(10);
    const saved = validateRecordUpdate(fields, 7, { title: `${decomposed}!`, body: 'Ze\u0308bra' }, current);
    expect(saved).toMatchObject({ title: 'Café menu!', body: 'Zëbra' });
    expect(problems({ title: 'Cafe\u0301 menu!!' })).toEqual({ title: FIELD_MESSAGES.tooLong(10) });
  });

  it('returns the current data with the given fields replaced, keeping data that is not a field', () => {
    expect(validateRecordUpdate(fields, 7, { title: 'New', rank: 2, pinned: true }, current)).toEqual({
      title: 'New',
      label: 'L',
      group: 'news',
      authorId: 3,
      rank: 2,
      pinned: true,
    });
  });

  it('clears an optional field given null', () => {
    expect(validateRecordUpdate(fields, 7, { group: null }, current)).toEqual({
      title: 'Old',
      label: 'L',
      authorId: 3,
    });
  });

  it('clears a day given empty, as a cleared day picker sends it, and refuses an empty day that is required', () => {
    const withDays = new Map([
      ...fields,
      ['published', Field.date('published')],
      ['due', Field.date('due', { required: true })],
    ]);
    const dated = { ...current, published: '2024-03-15', due: '2024-04-01' };
    const { id: _id, ...data } = current;
    expect(validateRecordUpdate(withDays, 7, { published: '' }, dated)).toEqual({ ...data, due: '2024-04-01' });
    expect(() => validateRecordUpdate(withDays, 7, { due: '' }, dated)).toThrow(
      expect.objectContaining({ fields: { due: FIELD_MESSAGES.required } }),
    );
  });

  it('accepts the record id itself and an empty optional value', () => {
    expect(validateRecordUpdate(fields, 7, { id: 7, email: '', group: '' }, current)).toMatchObject({
      email: '',
      group: '',
    });
  });

  it.each<[string, unknown, Record<string, string>]>([
    ['a missing required value', { title: '' }, { title: FIELD_MESSAGES.required }],
    ['a blank required value', { label: '   ' }, { label: FIELD_MESSAGES.required }],
    ['a required value set to null', { title: null }, { title: FIELD_MESSAGES.required }],
    ['too long a value', { title: 'x'.repeat(11) }, { title: FIELD_MESSAGES.tooLong(10) }],
    ['a value not among the options', { group: 'sports' }, { group: FIELD_MESSAGES.notAnOption }],
    ['a number for text', { title: 5 }, { title: FIELD_MESSAGES.notText }],
    ['an object for text', { body: { html: '<p>' } }, { body: FIELD_MESSAGES.notText }],
    ['text for a number', { rank: '5' }, { rank: FIELD_MESSAGES.notNumber }],
    ['a blank for a number', { rank: ' ' }, { rank: FIELD_MESSAGES.notNumber }],
    ['text for a checkbox', { pinned: 'yes' }, { pinned: FIELD_MESSAGES.notBoolean }],
    ['a bad email', { email: 'not-an-email' }, { email: FIELD_MESSAGES.notEmail }],
    ['an unknown field', { color: 'red' }, { color: FIELD_MESSAGES.unknown }],
    ['data that is not a field (the relation key)', { authorId: 9 }, { authorId: FIELD_MESSAGES.unknown }],
    ['another id', { id: 8 }, { id: FIELD_MESSAGES.idChange }],
  ])('refuses %s, naming the field', (_what, body, expected) => {
    expect(problems(body)).toEqual(expected);
  });

  it('takes a number left empty ("") as none, and says so of a required one', () => {
    // A new record's form sends a number field left empty as its control's empty value.
    expect(validateRecordUpdate(fields, null, { title: 'T', label: 'L', rank: '' }, {})).toEqual({
      title: 'T',
      label: 'L',
    });
    expect(validateRecordUpdate(fields, 7, { rank: '' }, { ...current, rank: 4 })).not.toHaveProperty('rank');
    const required = new Map([['count', Field.number('count', { required: true })]]);
    try {
      validateRecordUpdate(required, null, { count: '' }, {});
      throw new Error('not refused');
    } catch (error) {
      expect((error as HttpError).fields).toEqual({ count: FIELD_MESSAGES.required });
    }
  });

  it('lists every problem at once', () => {
    expect(problems({ title: '', group: 'x', extra: 1 })).toEqual({
      title: FIELD_MESSAGES.required,
      group: FIELD_MESSAGES.notAnOption,
      extra: FIELD_MESSAGES.unknown,
    });
  });

  it('reports a __proto__ key as unknown and pollutes nothing', () => {
    const body = JSON.parse('{"__proto__": {"polluted": true}, "title": "ok"}') as unknown;
    expect(problems(body)).toEqual({ ['__proto__']: FIELD_MESSAGES.unknown });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a body that is not an object, with a message and no fields', () => {
    for (const body of [null, [], 'title', 3]) {
      expect(() => validateRecordUpdate(fields, 7, body, current)).toThrow(HttpError);
    }
    try {
      validateRecordUpdate(fields, 7, { title: '' }, current);
    } catch (error) {
      expect((error as HttpError).message).toBe(INVALID_RECORD_MESSAGE);
    }
  });

  it('counts length in characters, not UTF-16 units', () => {
    expect(() => validateRecordUpdate(fields, 7, { title: '😀'.repeat(10) }, current)).not.toThrow();
  });
});
