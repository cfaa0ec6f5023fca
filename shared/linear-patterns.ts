/**
 * The patterns of a remote team's props schemas (`pattern`, `patternProperties`), run in time linear in the text:
 * JavaScript's engine backtracks, and a pattern such as `^([a-z ]+)*$` held the server's one thread for hours. Each is
 * written for RE2 (re2js) with JavaScript's meaning kept (ECMA-262 with the `u` flag, as Ajv, the host and the kit's
 * slot tests read it), and bounded: RE2 compiles a counted repetition into copies of what it repeats, so a long run of
 * `[a-z]{0,1000}` took seconds to compile and to match. The server and the kit's `propsSchema` share it, each giving
 * it RE2 (re2js's `RE2JS.compile`): shared/ imports no package.
 */

/** At most this many characters in a pattern. */
export const PATTERN_MAX_LENGTH = 1000;
/** At most this many RE2 instructions in a compiled pattern (`[a-z]{0,400}` is about 800): a length is `maxLength`'s. */
export const PATTERN_MAX_PROGRAM_SIZE = 1000;
/** At most this many patterns in one component's props schema. */
export const PATTERNS_PER_SCHEMA_MAX = 100;

/** A pattern the product does not run, and why. */
export class PatternNotRun extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'PatternNotRun';
  }
}

/** What the patterns are compiled with: RE2 (`(source) => RE2JS.compile(source)`). */
export type Re2Compile<Compiled extends { programSize(): number }> = (source: string) => Compiled;

/** The pattern compiled by RE2, as JavaScript means it; throws PatternNotRun with the reason when it cannot be. */
export function compileLinearPattern<Compiled extends { programSize(): number }>(
  pattern: string,
  compile: Re2Compile<Compiled>,
): Compiled {
  if (pattern.length > PATTERN_MAX_LENGTH) {
    throw new PatternNotRun(`it is ${pattern.length} characters long, over the ${PATTERN_MAX_LENGTH} a pattern may be`);
  }
  let compiled: Compiled;
  try {
    compiled = compile(re2PatternOf(pattern));
  } catch (error) {
    if (error instanceof PatternNotRun) throw error;
    throw new PatternNotRun(`RE2 cannot run it (${(error as Error).message})`);
  }
  if (compiled.programSize() > PATTERN_MAX_PROGRAM_SIZE) {
    throw new PatternNotRun(
      `its repetitions are too large to run (${compiled.programSize()} instructions, over ${PATTERN_MAX_PROGRAM_SIZE}): ` +
        'bound a text with maxLength rather than a counted repetition',
    );
  }
  return compiled;
}

/** Every `pattern` and `patternProperties` name of a schema, at any depth (data such as `default` included: a bound). */
export function patternsIn(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap(patternsIn);
  const found: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' && typeof value === 'string') found.push(value);
    if (key === 'patternProperties' && value !== null && typeof value === 'object') found.push(...Object.keys(value));
    found.push(...patternsIn(value));
  }
  return found;
}

/** JavaScript's white space and line terminators (`\s`), as code point ranges. */
const JS_SPACES: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

const MAX_CODE_POINT = 0x10ffff;

function complementOf(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const result: [number, number][] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

/** Ranges as the members of an RE2 class, without its brackets. */
function members(ranges: readonly (readonly [number, number])[]): string {
  const at = (code: number) => `\\x{${code.toString(16)}}`;
  return ranges.map(([low, high]) => (low === high ? at(low) : `${at(low)}-${at(high)}`)).join('');
}

const SPACE_MEMBERS = members(JS_SPACES);
const NON_SPACE_MEMBERS = members(complementOf(JS_SPACES));
/** JavaScript's `.` without the `s` flag: anything but a line terminator (RE2's leaves out `\n` alone). */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const ANYTHING = `\\x{0}-\\x{${MAX_CODE_POINT.toString(16)}}`;

/** General categories by their long names (`\p{Letter}`), which RE2 knows by their short ones alone (`\p{L}`). */
const GENERAL_CATEGORIES: Readonly<Record<string, string>> = {
  Letter: 'L',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Other: 'C',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Surrogate: 'Cs',
  Private_Use: 'Co',
};

/** `\p{…}`'s name as RE2 writes it: a general category's short name, or a script's (`Script=Greek` -> `Greek`). */
function propertyName(name: string): string {
  const [key, value] = name.includes('=') ? name.split('=', 2) : [undefined, name];
  if (key === 'Script' || key === 'sc') return value ?? '';
  if (key !== undefined && key !== 'General_Category' && key !== 'gc') {
    throw new PatternNotRun(`the Unicode property ${name} has no equivalent in RE2`);
  }
  return GENERAL_CATEGORIES[value ?? ''] ?? value ?? '';
}

/** A code point as RE2 writes it in a pattern or a class. */
function codePoint(code: number): string {
  return `\\x{${code.toString(16)}}`;
}

/**
 * One escape at `at` (the backslash), as RE2 writes it with JavaScript's meaning; `inClass` inside `[...]`, where
 * `\s` and `\S` give their members. Returns the text and the index of the escape's last character.
 */
function escapeAt(pattern: string, at: number, inClass: boolean): { text: string; end: number } {
  const char = pattern[at + 1] ?? '';
  const hex = (from: number, length: number) => /^[0-9a-fA-F]+$/.exec(pattern.slice(from, from + length))?.[0];
  switch (char) {
    case 's':
      return { text: inClass ? SPACE_MEMBERS : `[${SPACE_MEMBERS}]`, end: at + 1 };
    case 'S':
      return { text: inClass ? NON_SPACE_MEMBERS : `[${NON_SPACE_MEMBERS}]`, end: at + 1 };
    case 'b':
      return { text: inClass ? codePoint(8) : '\\b', end: at + 1 };
    case 'c': {
      const letter = pattern[at + 2] ?? '';
      if (!/[A-Za-z]/.test(letter)) throw new PatternNotRun('\\c is not followed by a letter');
      return { text: codePoint(letter.charCodeAt(0) % 32), end: at + 2 };
    }
    case 'x': {
      const digits = hex(at + 2, 2);
      if (digits?.length !== 2) throw new PatternNotRun('\\x is not followed by two hexadecimal digits');
      return { text: codePoint(parseInt(digits, 16)), end: at + 3 };
    }
    case 'u': {
      if (pattern[at + 2] === '{') {
        const close = pattern.indexOf('}', at + 3);
        const digits = close === -1 ? undefined : hex(at + 3, close - at - 3);
        if (digits === undefined || digits.length !== close - at - 3) throw new PatternNotRun('\\u{…} is malformed');
        return { text: codePoint(parseInt(digits, 16)), end: close };
      }
      const digits = hex(at + 2, 4);
      if (digits?.length !== 4) throw new PatternNotRun('\\u is not followed by four hexadecimal digits');
      const code = parseInt(digits, 16);
      // A surrogate pair written as two escapes is one character.
      const low = pattern.startsWith('\\u', at + 6) ? hex(at + 8, 4) : undefined;
      if (code >= 0xd800 && code <= 0xdbff && low?.length === 4) {
        const lowCode = parseInt(low, 16);
        if (lowCode >= 0xdc00 && lowCode <= 0xdfff) {
          return { text: codePoint((code - 0xd800) * 0x400 + (lowCode - 0xdc00) + 0x10000), end: at + 11 };
        }
      }
      return { text: codePoint(code), end: at + 5 };
    }
    case 'p':
    case 'P': {
      const close = pattern.indexOf('}', at + 3);
      if (pattern[at + 2] !== '{' || close === -1) throw new PatternNotRun(`\\${char} is not followed by {…}`);
      return { text: `\\${char}{${propertyName(pattern.slice(at + 3, close))}}`, end: close };
    }
    case 'k':
      throw new PatternNotRun('a backreference (\\k<…>) cannot be run in linear time');
    case '0':
      if (/[0-9]/.test(pattern[at + 2] ?? ''))
        throw new PatternNotRun('an octal escape is not a pattern JSON Schema runs');
      return { text: codePoint(0), end: at + 1 };
    default:
      if (/[1-9]/.test(char)) throw new PatternNotRun(`a backreference (\\${char}) cannot be run in linear time`);
      // \d \D \w \W \B \t \n \r \v \f mean the same in both; an escaped punctuation character is itself.
      return { text: `\\${char}`, end: at + 1 };
  }
}

/**
 * A pattern as JavaScript reads it (ECMA-262, `u` flag), written for RE2 with the same meaning: `\s`, `\S` and `.` by
 * JavaScript's sets (RE2's `\s` is ASCII, its `.` takes `\r`), `\uXXXX`, `\u{…}`, `\cX`, `[^]`, `[\b]` and long
 * Unicode property names in RE2's syntax. Throws PatternNotRun for what RE2 cannot run: lookaround, backreferences.
 */
export function re2PatternOf(pattern: string): string {
  let out = '';
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at] as string;
    if (char === '\\') {
      const escape = escapeAt(pattern, at, false);
      out += escape.text;
      at = escape.end;
    } else if (char === '.') {
      out += DOT;
    } else if (char === '(' && pattern[at + 1] === '?') {
      const kind = pattern.slice(at + 2, at + 4);
      if (kind.startsWith('=') || kind.startsWith('!') || kind === '<=' || kind === '<!') {
        throw new PatternNotRun('lookaround ((?=…), (?!…), (?<=…), (?<!…)) cannot be run in linear time');
      }
      out += char;
    } else if (char === '[') {
      const group = classAt(pattern, at);
      out += group.text;
      at = group.end;
    } else {
      out += char;
    }
  }
  return out;
}

/** The class opened at `at`, as RE2 writes it; and the index of its `]`. */
function classAt(pattern: string, at: number): { text: string; end: number } {
  let index = at + 1;
  const negated = pattern[index] === '^';
  if (negated) index++;
  // JavaScript's `[]` matches nothing and `[^]` anything; RE2 would read the `]` as a member.
  if (pattern[index] === ']') return { text: negated ? `[${ANYTHING}]` : `[^${ANYTHING}]`, end: index };
  let body = '';
  for (; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === ']') return { text: `[${negated ? '^' : ''}${body}]`, end: index };
    if (char === '\\') {
      const escape = escapeAt(pattern, index, true);
      body += escape.text;
      index = escape.end;
    } else if (char === '[') {
      // A literal `[` in JavaScript; RE2 would read `[:alpha:]` as a POSIX class.
      body += '\\[';
    } else {
      body += char;
    }
  }
  throw new PatternNotRun('a character class is not closed');
}
