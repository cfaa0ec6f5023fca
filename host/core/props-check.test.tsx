import { screen, waitFor } from '@testing-library/react';
import type { JsonObject, JsonSchema, SlotMap } from '../../shared';
import { createFakeApi, UNAUTHENTICATED } from '../../testing/host/fake-api';
import { renderWithSlotBoundaries } from '../../testing/host/render-slots';
import { HOST_MESSAGES } from '../loader/messages';
import { AppSlotRenderer } from './app-slot-renderer';
import { ComponentRegistry } from './component-registry';
import { createTestSlotSource } from '../../testing/host/slot-source';
import type { SlotFailure } from './log-slot-failures';
import { createPropsCheck } from './dev-props-check';
import { createSlotStatus, SlotRuntimeProvider, type SlotRuntime } from './slot-runtime';
import { SlotSourceProvider } from './slot-source-provider';

/**
 * The JSON Schema the kit writes for `propsSchema({ amountDue: Type.Number(), links: Type.Optional(Type.Array(
 * Type.Object({ href: Type.String() }))) })`.
 */
const INVOICE_BANNER: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    amountDue: { type: 'number' },
    links: {
      type: 'array',
      items: { type: 'object', properties: { href: { type: 'string' } }, required: ['href'] },
    },
  },
  required: ['amountDue'],
};

function InvoiceBanner({ amountDue }: { amountDue: number }) {
  return <p>Due: €{amountDue.toFixed(2)}</p>;
}

function renderSlots(slots: SlotMap, showFailures: boolean) {
  const api = createFakeApi({
    'GET /slots': { body: { slots } },
    'GET /api/slots/schemas': { body: { schemas: { InvoiceBanner: INVOICE_BANNER } } },
  });
  const registry = new ComponentRegistry('SlotComponentRegistry');
  registry.registerMany({ InvoiceBanner });
  const logged: SlotFailure[] = [];
  const status = createSlotStatus({ log: (_message, failure) => logged.push(failure) });
  const { pageSlots } = status;
  const runtime: Partial<SlotRuntime> = {
    slotRegistry: registry,
    globalRegistry: new ComponentRegistry('GlobalComponentRegistry'),
    ...status,
    remoteOf: () => 'team_billing',
    showFailures,
    // As the bootstrap does: a check only when the server says details may be shown.
    propsCheck: showFailures ? createPropsCheck(api.client) : null,
  };
  renderWithSlotBoundaries(
    <SlotRuntimeProvider runtime={runtime}>
      <SlotSourceProvider source={createTestSlotSource(api)}>
        <AppSlotRenderer location="global-before-content" />
      </SlotSourceProvider>
    </SlotRuntimeProvider>,
  );
  return { api, logged, pageSlots };
}

describe('the development props check', () => {
  it('shows why in the placeholder instead of rendering a component with props its schema refuses', async () => {
    const { logged, pageSlots } = renderSlots(
      {
        'global-before-content': [
          { component: 'InvoiceBanner', props: { amountDue: 'lots' } },
          { component: 'InvoiceBanner', props: { amountDue: 12.5 } },
        ],
      },
      true,
    );
    await screen.findByText('Due: €12.50');
    const problem = 'props.amountDue must be number, got "lots"';
    expect(await screen.findByText(HOST_MESSAGES.invalidProps('InvoiceBanner', problem))).toBeTruthy();
    expect(document.querySelector('[data-slot-failure="props-invalid"]')).not.toBeNull();
    expect(logged).toEqual([
      {
        location: 'global-before-content',
        component: 'InvoiceBanner',
        remote: 'team_billing',
        kind: 'props-invalid',
        error: HOST_MESSAGES.invalidProps('InvoiceBanner', problem),
      },
    ]);
    // The page's record says the same, for the slot inspector.
    await waitFor(() =>
      expect(pageSlots.snapshot()[0]?.slots).toEqual([
        {
          location: 'global-before-content',
          index: 0,
          component: 'InvoiceBanner',
          remote: 'team_billing',
          state: 'failed',
          reason: 'props-invalid',
          detail: HOST_MESSAGES.invalidProps('InvoiceBanner', problem),
        },
        {
          location: 'global-before-content',
          index: 1,
          component: 'InvoiceBanner',
          remote: 'team_billing',
          state: 'loaded',
        },
      ]),
    );
  });

  it('asks for the schemas again after a refused load: a sign-in in the same page brings them', async () => {
    let signedIn = false;
    const api = createFakeApi({
      'GET /api/slots/schemas': () =>
        signedIn ? { body: { schemas: { InvoiceBanner: INVOICE_BANNER } } } : UNAUTHENTICATED,
    });
    const check = createPropsCheck(api.client);
    await expect(check.check('InvoiceBanner', { amountDue: 'lots' })).resolves.toBeNull();
    signedIn = true;
    await expect(check.check('InvoiceBanner', { amountDue: 'lots' })).resolves.toMatch(/props\.amountDue/);
    expect(api.count('GET', '/api/slots/schemas')).toBe(2);
  });

  it("checks the public slots' components signed out, and asks again for a component it has no schema of", async () => {
    let signedIn = false;
    const api = createFakeApi({
      'GET /api/slots/schemas': () =>
        signedIn
          ? { body: { schemas: { InvoiceBanner: INVOICE_BANNER, LoginNotice: { type: 'object' } } } }
          : { body: { schemas: { LoginNotice: { type: 'object', required: ['title'] } }, partial: true } },
    });
    const check = createPropsCheck(api.client);
    // The sign-in page's own slot is checked before anyone signs in.
    await expect(check.check('LoginNotice', {})).resolves.toBe('props.title is required');
    // Signed in in the same page, a protected slot's component: its schema is asked for, and it is checked at once.
    signedIn = true;
    const [banner, again] = await Promise.all([
      check.check('InvoiceBanner', { amountDue: 'lots' }),
      check.check('InvoiceBanner', { amountDue: 'more' }),
    ]);
    expect([banner, again]).toEqual([
      expect.stringMatching(/props\.amountDue/),
      expect.stringMatching(/props\.amountDue/),
    ]);
    expect(api.count('GET', '/api/slots/schemas')).toBe(2);
  });

  it("checks a component's patterns, leaving to the server one that may backtrack without end in the browser", async () => {
    const notice = {
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        message: { type: 'string', pattern: '^([a-z ]+)*$' },
      },
    };
    const api = createFakeApi({ 'GET /api/slots/schemas': { body: { schemas: { Notice: notice } } } });
    const check = createPropsCheck(api.client);
    await expect(check.check('Notice', { code: 'abc' })).resolves.toMatch(/props\.code/);
    await expect(check.check('Notice', { code: 'ABC', message: `${'a'.repeat(20)}!` })).resolves.toBeNull();
  });

  it('loads no schema and checks nothing when the server runs in production', async () => {
    const { api, pageSlots } = renderSlots(
      { 'global-before-content': [{ component: 'InvoiceBanner', props: { amountDue: 3 } }] },
      false,
    );
    await screen.findByText('Due: €3.00');
    expect(api.count('GET', '/api/slots/schemas')).toBe(0);
    await waitFor(() => expect(pageSlots.snapshot()[0]?.slots[0]?.state).toBe('loaded'));
  });

  // The words the server says for the same props (shared/props-words.ts), not the validator's sentences.
  it.each<[string, JsonObject, string]>([
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
  ])('words %s in the placeholder as the server does', async (_, props, problem) => {
    renderSlots({ 'global-before-content': [{ component: 'InvoiceBanner', props }] }, true);
    expect(await screen.findByText(HOST_MESSAGES.invalidProps('InvoiceBanner', problem))).toBeTruthy();
  });
});
