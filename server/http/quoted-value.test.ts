import { QUOTED_MAX_CHARS, quotedValue, shortened } from './quoted-value';

describe('quotedValue', () => {
  it('quotes a short value whole, as JSON', () => {
    expect(quotedValue('team/x')).toBe('"team/x"');
    expect(quotedValue(['A', 1])).toBe('["A",1]');
    expect(quotedValue(undefined)).toBe('undefined');
  });

  it('cuts a long string inside its quotes, and a long value of any kind, with an ellipsis', () => {
    const long = 'y'.repeat(QUOTED_MAX_CHARS * 100);
    expect(quotedValue(long)).toBe(`"${'y'.repeat(QUOTED_MAX_CHARS - 1)}…"`);
    const quoted = quotedValue({ name: long });
    expect(quoted).toHaveLength(QUOTED_MAX_CHARS);
    expect(quoted).toMatch(/^\{"name":"y+…$/);
  });
});

describe('shortened', () => {
  it('keeps a text at the bound, and never cuts a character in two', () => {
    const atBound = 'z'.repeat(QUOTED_MAX_CHARS);
    expect(shortened(atBound)).toBe(atBound);
    // An emoji (two UTF-16 units) across the cut: dropped whole.
    const text = `${'z'.repeat(QUOTED_MAX_CHARS - 2)}😀 and more`;
    expect(shortened(text)).toBe(`${'z'.repeat(QUOTED_MAX_CHARS - 2)}…`);
  });
});
