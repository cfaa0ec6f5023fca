/**
 * @jest-environment node
 */
import { Validator } from '@cfworker/json-schema';
import type { JsonObject, JsonSchema } from '../../shared';
import { validatorOf } from '../../host/core/props-check';
import { PropsValidator } from '../../server/slots/props-validator';
import { emulatedPropsCheck, propsViolationsOf } from './emulated-props-check';

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

const kitWords = (props: JsonObject) =>
  propsViolationsOf(validatorOf(Validator)(SCHEMA, props), SCHEMA, props, 'InvoiceBanner');

describe("the emulator's props check", () => {
  it.each(PROPS.map((props) => [JSON.stringify(props), props]))(
    'words each problem of %s as the server does',
    (_, props) => {
      const server = new PropsValidator().validate(SCHEMA, props, 'InvoiceBanner');
      expect(server.length).toBeGreaterThan(0);
      const sorted = (violations: typeof server) =>
        violations.map(({ path, message }) => `${path} ${message}`).sort((a, b) => a.localeCompare(b));
      expect(sorted(kitWords(props))).toEqual(sorted(server));
    },
  );

  it("says the server's line, never the validator's sentences", async () => {
    const check = emulatedPropsCheck({ InvoiceBanner: SCHEMA });
    const said = await check.check('InvoiceBanner', { customer: 'x', kind: 'a', when: '2026-11-20', tags: [] });
    expect(said).toBe('props.amount is required (number)');
    expect(await check.check('InvoiceBanner', { amount: 'lots' })).not.toMatch(/Instance|does not match/);
    expect(await check.check('Other', {})).toBeNull();
    const even = { customer: 'x', amount: 2, kind: 'a', when: '2026-11-20', tags: [], even: 3 };
    expect(await check.check('InvoiceBanner', even)).toBe('props.even must be multiple of 2, got 3');
  });
});
