/**
 * @jest-environment node
 */
import { FORM_FIELD_KEYWORD, type JsonObject } from '../../shared';
import { createPropsCheck } from '../../host/core/dev-props-check';
import { PropsValidator } from '../../server/slots/props-validator';
import { createFakeApi } from '../../testing/host/fake-api';
import { emulatedPropsCheck } from './emulated-props-check';
import { formFieldName, propsSchema, Type } from './schema';

/** What remote.ts declares: `propsSchema` refuses undeclared props, the links' items are objects. */
const INVOICE_BANNER = propsSchema({
  amountDue: Type.Number(),
  links: Type.Optional(Type.Array(Type.Object({ href: Type.String() }))),
});

const CASES: [string, JsonObject, string][] = [
  ['a wrong type', { amountDue: 'lots' }, 'props.amountDue must be number, got "lots"'],
  ['a missing required prop', {}, 'props.amountDue is required (number)'],
  [
    'an unknown prop',
    { amountDue: 1, amountdue: 2 },
    'props.amountdue is not a prop of InvoiceBanner (its props: amountDue, links)',
  ],
  [
    'a nested array item',
    { amountDue: 1, links: [{ href: '/a' }, { href: 7 }, {}] },
    'props.links[1].href must be string, got 7; props.links[2].href is required (string)',
  ],
];

describe("the emulator's props check", () => {
  const emulated = emulatedPropsCheck({ InvoiceBanner: INVOICE_BANNER });

  it.each(CASES)('words %s as the server and the product’s placeholder do', async (_, props, said) => {
    await expect(emulated.check('InvoiceBanner', props)).resolves.toBe(said);
    // The server's problem for the same props, and the host's development check of them, in the same words.
    const server = new PropsValidator().validate(INVOICE_BANNER, props, 'InvoiceBanner');
    expect(server.map(({ path, message }) => `${path} ${message}`).sort()).toEqual(said.split('; ').sort());
    const api = createFakeApi({ 'GET /api/slots/schemas': { body: { schemas: { InvoiceBanner: INVOICE_BANNER } } } });
    await expect(createPropsCheck(api.client).check('InvoiceBanner', props)).resolves.toBe(said);
  });

  it('checks nothing for a component without a schema, and says nothing of props that conform', async () => {
    await expect(emulated.check('Other', { anything: 1 })).resolves.toBeNull();
    await expect(emulated.check('InvoiceBanner', { amountDue: 1, links: [{ href: '/a' }] })).resolves.toBeNull();
  });
});

/**
 * `formFieldName()`'s annotation is read by the server's slot check alone: the three validators take a field name as
 * a non-empty string and say nothing of the annotation.
 */
describe("the props check of a field name's prop", () => {
  const PREVIEW = propsSchema({ source: formFieldName(), target: formFieldName({ description: 'where it writes' }) });

  it('is a non-empty string to the server, the host and the emulator, whatever the annotation', async () => {
    expect(JSON.parse(JSON.stringify(PREVIEW.properties.source))).toEqual({
      type: 'string',
      minLength: 1,
      [FORM_FIELD_KEYWORD]: true,
    });
    expect(PREVIEW.properties.target).toMatchObject({ description: 'where it writes', [FORM_FIELD_KEYWORD]: true });
    const api = createFakeApi({ 'GET /api/slots/schemas': { body: { schemas: { Preview: PREVIEW } } } });
    for (const [props, said] of [
      [{ source: 'title', target: 'slug' }, null],
      [{ source: '', target: 'slug' }, 'props.source must NOT have fewer than 1 characters, got ""'],
    ] as const) {
      await expect(emulatedPropsCheck({ Preview: PREVIEW }).check('Preview', props)).resolves.toBe(said);
      await expect(createPropsCheck(api.client).check('Preview', props)).resolves.toBe(said);
      const server = new PropsValidator().validate(PREVIEW, props, 'Preview');
      expect(server.map(({ path, message }) => `${path} ${message}`)).toEqual(said === null ? [] : [said]);
    }
  });
});

/**
 * A team's `pattern`s as the host's development check runs them (host/core/backtracking-patterns.ts): one of the
 * shapes that may backtrack without end in JavaScript's engine (`(a+)+`) is left out in the browser and checked by
 * the server alone, in linear time; the others are checked, in the same words.
 */
describe("the emulator's props check of patterns", () => {
  const NOTICE = propsSchema({
    code: Type.String({ pattern: '^[A-Z]{3}$' }),
    message: Type.Optional(Type.String({ pattern: '^([a-z ]+)*$' })),
  });
  const hostCheck = () =>
    createPropsCheck(createFakeApi({ 'GET /api/slots/schemas': { body: { schemas: { Notice: NOTICE } } } }).client);

  it('words a pattern the browser runs as the host does', async () => {
    const said = 'props.code must match pattern "^[A-Z]{3}$", got "abc"';
    await expect(emulatedPropsCheck({ Notice: NOTICE }).check('Notice', { code: 'abc' })).resolves.toBe(said);
    await expect(hostCheck().check('Notice', { code: 'abc' })).resolves.toBe(said);
  });

  it('leaves to the server, as the host does, a pattern that may backtrack without end in the browser', async () => {
    const props = { code: 'ABC', message: 'hello 1' };
    await expect(hostCheck().check('Notice', props)).resolves.toBeNull();
    await expect(emulatedPropsCheck({ Notice: NOTICE }).check('Notice', props)).resolves.toBeNull();
    // The server runs it (in linear time) at start-up and at a release's publish: there the props are refused.
    const server = new PropsValidator().validate(NOTICE, props, 'Notice');
    expect(server.map(({ path, message }) => `${path} ${message}`)).toEqual([
      'props.message must match pattern "^([a-z ]+)*$", got "hello 1"',
    ]);
  });

  it("answers at once for a text on which that pattern would hold JavaScript's engine", async () => {
    // 2^40 ways of splitting the letters before the `!`: JavaScript's backtracking engine would not finish.
    const props = { code: 'ABC', message: `${'a'.repeat(40)}!` };
    await expect(emulatedPropsCheck({ Notice: NOTICE }).check('Notice', props)).resolves.toBeNull();
  });
});
