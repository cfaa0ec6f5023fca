/**
 * @jest-environment node
 */
import { Validator } from '@cfworker/json-schema';
import type { JsonObject, JsonSchema } from '../../shared';
import { PropsValidator } from '../../server/slots/props-validator';
import { propsValidatorOf } from './props-violations';

/** A schema with the keywords remote.ts's TypeBox writes, as `propsSchema` writes it (undeclared props refused). */
const SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['customer', 'amount', 'kind', 'when', 'tags'],
  properties: {
    customer: { type: 'string' },
    amount: { type: 'number', minimum: 0, maximum: 10 },
    kind: { enum: ['a', 'b'] },
    when: { type: 'string', format: 'date' },
    tags: { type: 'array', items: { type: 'string', maxLength: 3 } },
    code: { type: 'string', pattern: '^[a-z]+$' },
    lit: { const: 'x' },
    either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    nested: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
    even: { type: 'integer', multipleOf: 2 },
    short: { type: 'string', minLength: 2 },
    list: { type: 'array', minItems: 1, uniqueItems: true },
    ratio: { type: 'number', exclusiveMaximum: 1 },
  },
};

const VALID: JsonObject = { customer: 'x', amount: 2, kind: 'a', when: '2026-11-20', tags: [] };

const PROPS: JsonObject[] = [
  {},
  {
    customer: 1,
    amount: 'lots',
    kind: 'c',
    when: 'nope',
    tags: ['abcd', 2],
    code: 'A1',
    lit: 'y',
    either: true,
    extra: 1,
    nested: {},
  },
  { customer: 'x', amount: 20, kind: 'a', when: '2026-11-20', tags: [], even: 3, short: 'a', list: [], ratio: 1 },
  { customer: 'x', amount: -1, kind: 'a', when: '2026-11-20', tags: [], even: 2.5, list: [1, 2, 1] },
];

const browserWords = propsValidatorOf(Validator);

describe("the browser's props check, in the server's words", () => {
  it.each(PROPS.map((props) => [JSON.stringify(props), props]))(
    'words each problem of %s as the server does',
    (_, props) => {
      const server = new PropsValidator().validate(SCHEMA, props, 'InvoiceBanner');
      expect(server.length).toBeGreaterThan(0);
      const sorted = (violations: typeof server) =>
        violations.map(({ path, message }) => `${path} ${message}`).sort((a, b) => a.localeCompare(b));
      expect(sorted(browserWords(SCHEMA, props, 'InvoiceBanner'))).toEqual(sorted(server));
    },
  );

  it('says every problem once, without the wrappers and the branches of a union', () => {
    const said = browserWords(SCHEMA, { ...VALID, either: true, tags: ['abcd', 'abcde'] }, 'InvoiceBanner');
    expect(said.map(({ path, message }) => `${path} ${message}`)).toEqual([
      'props.tags[0] must NOT have more than 3 characters, got "abcd"',
      'props.tags[1] must NOT have more than 3 characters, got "abcde"',
      'props.either must be string or number, got true',
    ]);
  });

  it('says nothing of props that conform', () => {
    expect(browserWords(SCHEMA, VALID, 'InvoiceBanner')).toEqual([]);
  });
});
