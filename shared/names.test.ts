import {
  COMPONENT_NAME_PATTERN,
  describe as describeValue,
  EXPOSED_COMPONENT_PATTERN,
  REMOTE_NAME_PATTERN,
  SLUG_PATTERN,
} from './names';

describe('describe', () => {
  it.each([
    [null, 'null'],
    [undefined, 'undefined'],
    ['x', 'the string "x"'],
    [42, 'a number'],
    [[], 'an array'],
    [{}, 'an object'],
    [Object.create(null), 'an object'],
    [new Date(0), 'a Date'],
    [new Error('e'), 'an Error'],
    [() => 1, 'a function'],
  ])('names %p as %s', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });
});

describe('name patterns', () => {
  it('takes an exposed component name as a slot component name too', () => {
    for (const name of ['Hello', 'InvoiceBanner', 'A1']) {
      expect(EXPOSED_COMPONENT_PATTERN.test(name)).toBe(true);
      expect(COMPONENT_NAME_PATTERN.test(name)).toBe(true);
    }
    expect(EXPOSED_COMPONENT_PATTERN.test('core/Thing')).toBe(false);
    expect(COMPONENT_NAME_PATTERN.test('core/Thing')).toBe(true);
  });

  it('keeps remote names to identifiers and slugs to kebab-case', () => {
    expect(REMOTE_NAME_PATTERN.test('team_records')).toBe(true);
    expect(REMOTE_NAME_PATTERN.test('team-records')).toBe(false);
    expect(SLUG_PATTERN.test('blog-posts')).toBe(true);
    expect(SLUG_PATTERN.test('BlogPosts')).toBe(false);
  });
});
