import { RE2JS } from 're2js';
import {
  compileLinearPattern as compileWith,
  PATTERN_MAX_LENGTH,
  PatternNotRun,
  patternsIn,
  re2PatternOf,
} from './linear-patterns';

/** As the server and the kit compile them: with re2js. */
const compileLinearPattern = (pattern: string) => compileWith(pattern, (source) => RE2JS.compile(source));

/** Texts that tell the engines' readings apart: spaces and line ends of every kind, astral characters, controls. */
const TEXTS = [
  '',
  'Hello',
  'hello world',
  'Zoë',
  'Καλημέρα',
  'a\u00a0b',
  'a\rb',
  'a\nb',
  'a\u2028b',
  '\u00a0',
  '\u3000',
  '\v',
  '\ufeff',
  ' \t ',
  '\u0085',
  '🎉',
  '🎉x',
  'x\u0008y',
  'line\none',
  '#00ff7f',
  'ABC-123',
  'a'.repeat(30),
  '\u0000',
  '\n',
  '[x]',
  'a-b',
];

describe('compileLinearPattern', () => {
  it.each([
    '^[\\u0020-\\u007E]*$',
    '^\\p{Letter}+$',
    '^\\p{L}+$',
    '^\\p{Emoji}+$',
    '^\\p{Lu}',
    '^\\p{Script=Greek}+$',
    '^\\p{sc=Greek}+$',
    '^\\p{gc=Lu}',
    '^\\P{L}+$',
    '^[^]{1,80}$',
    '^[]$',
    '^\\S+$',
    '^\\s*$',
    '^[\\s\\d]+$',
    '^[^\\s]+$',
    '^[\\S]+$',
    '^.+$',
    '^.$',
    '^[.]$',
    '^\\cJ$',
    '[\\b]',
    '\\bworld\\b',
    '^\\u{1F389}',
    '^\\uD83C\\uDF89',
    '^\\x41',
    '\\0',
    '^#[0-9a-f]{6}$',
    '^[A-Z]{3}-\\d{3}$',
    '^(?<letter>[a-z])x?',
    '^\\w+$',
    '^\\W',
    '^[\\w-]+$',
    '\\[x\\]',
    '^[[]',
    '^a\\/b|a-b$',
    '',
  ])('runs %s as JavaScript does, on every text', (pattern) => {
    const linear = compileLinearPattern(pattern);
    const javascript = new RegExp(pattern, 'u');
    expect(TEXTS.map((text) => linear.test(text))).toEqual(TEXTS.map((text) => javascript.test(text)));
  });

  it.each([
    ['^(?!admin$).+$', /lookaround/],
    ['(?<=a)b', /lookaround/],
    ['^(a)\\1$', /backreference/],
    ['^(?<x>a)\\k<x>$', /backreference/],
    ['^\\p{Nonsense}$', /RE2 cannot run it/],
    ['^\\p{Script_Extensions=Greek}$', /no equivalent in RE2/],
    [`^${'[a-z ]{0,1000}'.repeat(3)}$`, /repetitions are too large to run \(\d+ instructions, over 1000\)/],
    ['^[a-z]{0,600}$', /repetitions are too large/],
    ['a'.repeat(PATTERN_MAX_LENGTH + 1), /1001 characters long, over the 1000/],
  ])('refuses %s, saying why', (pattern, reason) => {
    expect(() => compileLinearPattern(pattern)).toThrow(PatternNotRun);
    expect(() => compileLinearPattern(pattern)).toThrow(reason);
  });

  it('runs what backtracks without end in JavaScript in linear time', () => {
    expect(compileLinearPattern('^([a-z ]+)*$').test(`${'a'.repeat(5000)}!`)).toBe(false);
    expect(compileLinearPattern('(x+x+)+y').test('x'.repeat(5000))).toBe(false);
  });

  it('writes JavaScript-only syntax in RE2’s', () => {
    expect(re2PatternOf('\\u00e9\\p{Letter}[^]')).toBe('\\x{e9}\\p{L}[\\x{0}-\\x{10ffff}]');
  });
});

describe('patternsIn', () => {
  it('finds every pattern and patternProperties name, at any depth', () => {
    expect(
      patternsIn({
        properties: { a: { pattern: '^a$' }, b: { items: [{ pattern: '^b$' }] } },
        patternProperties: { '^c': { type: 'string' } },
      }),
    ).toEqual(['^a$', '^b$', '^c']);
  });
});
