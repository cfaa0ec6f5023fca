import type { JsonSchema } from '../../shared';
import { mayBacktrackWithoutEnd, withoutBacktrackingPatterns } from './backtracking-patterns';

describe('mayBacktrackWithoutEnd', () => {
  it.each(['^([a-z ]+)*$', '^(a+)+$', '(a|ab)*c', '^((a+)b)*$', '^(?:x*y?){2,}$', '^(\\w+\\s?)+$', '^([a-z]+){1,10}$'])(
    'names %s, a group repeated without bound that holds a repetition or an alternative',
    (pattern) => {
      expect(mayBacktrackWithoutEnd(pattern)).toBe(true);
    },
  );

  it.each([
    '^#[0-9a-f]{6}$',
    '^(https?://)?example\\.com$',
    '^(ab)+$',
    '^(a+)?$',
    '^(a+){1}$',
    '^[(a+)+]$',
    '^\\(a+\\)+$',
    '^(?<year>\\d{4})-(?<month>\\d{2})$',
    '',
  ])('passes %s', (pattern) => {
    expect(mayBacktrackWithoutEnd(pattern)).toBe(false);
  });
});

describe('withoutBacktrackingPatterns', () => {
  it('leaves out the patterns that may backtrack without end, wherever a schema is, and keeps the rest', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        message: { type: 'string', pattern: '^([a-z ]+)*$' },
        colour: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
        links: { type: 'array', items: { anyOf: [{ type: 'string', pattern: '(a|ab)*c' }, { type: 'null' }] } },
        // A prop named "pattern" is a prop, and a default is data.
        pattern: { type: 'string', default: '(a+)+' },
      },
      patternProperties: { '^(x+)+$': { type: 'number' }, '^y$': { type: 'string', pattern: '^(b+)+$' } },
    };
    expect(withoutBacktrackingPatterns(schema)).toEqual({
      type: 'object',
      properties: {
        message: { type: 'string' },
        colour: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
        links: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
        pattern: { type: 'string', default: '(a+)+' },
      },
      patternProperties: { '^y$': { type: 'string' } },
    });
    // The schema given is left as it was, and cleaned once.
    expect((schema.properties as Record<string, JsonSchema>).message?.pattern).toBe('^([a-z ]+)*$');
    expect(withoutBacktrackingPatterns(schema)).toBe(withoutBacktrackingPatterns(schema));
  });
});
