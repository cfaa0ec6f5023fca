import type { JsonSchema } from '../../../shared';
import { humanName, problemInWords } from './prop-words';

const SCHEMA: JsonSchema = {
  type: 'object',
  required: ['title'],
  properties: {
    title: { type: 'string' },
    amountDue: { type: 'integer', title: 'Amount due (EUR)' },
    links: { type: 'array', items: { type: 'object', properties: { href: { type: 'string' } } } },
  },
};

describe('problemInWords', () => {
  it('names a prop by its schema title, else its name in words, and drops the type after "is required"', () => {
    expect(problemInWords({ path: 'props.title', message: 'is required (string)' }, SCHEMA)).toBe('Title is required');
    expect(problemInWords({ path: 'props.amountDue', message: 'must be integer, got "lots"' }, SCHEMA)).toBe(
      'Amount due (EUR) must be integer, got "lots"',
    );
    expect(problemInWords({ path: 'props.links[0].href', message: 'must be string, got 3' }, SCHEMA)).toBe(
      'Links, item 1, Href must be string, got 3',
    );
    expect(problemInWords({ path: 'props["odd name"]', message: 'is required (string)' }, null)).toBe(
      'Odd name is required',
    );
  });

  it('keeps a problem that is not of one prop as the server words it', () => {
    expect(problemInWords({ path: null, message: 'unknown component' }, SCHEMA)).toBe('unknown component');
    expect(problemInWords({ path: 'visibleWhen.roles', message: 'names the unknown role' }, SCHEMA)).toBe(
      'visibleWhen.roles: names the unknown role',
    );
    expect(problemInWords({ path: 'props', message: 'must be object, got 3' }, SCHEMA)).toBe(
      'The props: must be object, got 3',
    );
  });
});

describe('humanName', () => {
  it('writes a camelCase or snake_case name in words', () => {
    expect(humanName('linkLabel')).toBe('Link label');
    expect(humanName('amount_due')).toBe('Amount due');
    expect(humanName('title')).toBe('Title');
  });
});
