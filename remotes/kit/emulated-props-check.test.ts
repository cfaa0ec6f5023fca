/**
 * @jest-environment node
 */
import type { JsonObject } from '../../shared';
import { createPropsCheck } from '../../host/core/dev-props-check';
import { PropsValidator } from '../../server/slots/props-validator';
import { createFakeApi } from '../../testing/host/fake-api';
import { emulatedPropsCheck } from './emulated-props-check';
import { propsSchema, Type } from './schema';

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
