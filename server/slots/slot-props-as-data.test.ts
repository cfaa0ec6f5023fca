/**
 * Slot props are data from registration to the wire: the app refuses anything that is not plain JSON when slots
 * are registered, and keys such as `__proto__` or `constructor` travel as ordinary data, polluting nothing.
 */
import request from 'supertest';
import { InvalidSlotError, SLOT_PROPS_MAX_BYTES, Slot, type MetaPayload, type SlotsPayload } from '../../shared';
import { addUser, createTestApp, type TestApp } from '../../testing/server/test-app';

class Money {
  constructor(readonly cents: number) {}
}

describe('slot props at registerSlots', () => {
  let testApp: TestApp;

  beforeEach(async () => {
    testApp = await createTestApp();
  });

  afterEach(async () => {
    delete (Object.prototype as Record<string, unknown>).polluted;
    await testApp.close();
  });

  const refusedProps: Array<[string, () => Record<string, unknown>]> = [
    ['a function', () => ({ onClick: () => alert('x') })],
    ['a nested function', () => ({ config: { items: [{ render: function render() {} }] } })],
    ['a class instance', () => ({ price: new Money(5) })],
    ['a Date', () => ({ when: new Date(0) })],
    ['a Map', () => ({ lookup: new Map([['a', 1]]) })],
    ['a RegExp', () => ({ pattern: /x/ })],
    ['a symbol', () => ({ id: Symbol('x') })],
    ['undefined', () => ({ maybe: undefined })],
    ['a bigint', () => ({ big: BigInt(1) })],
    ['NaN', () => ({ ratio: Number.NaN })],
    ['Infinity', () => ({ ratio: Number.POSITIVE_INFINITY })],
    [`more than ${SLOT_PROPS_MAX_BYTES} bytes`, () => ({ text: 'x'.repeat(SLOT_PROPS_MAX_BYTES) })],
  ];

  it.each(refusedProps)('refuses props holding %s, before anything is registered', (_label, props) => {
    expect(() => testApp.app.registerSlots({ 'header-banner': Slot.make('MaintenanceNotice', props()) })).toThrow(
      InvalidSlotError,
    );
    expect(testApp.app.slots.registry.snapshot().size).toBe(0);
  });

  it('refuses props that are themselves a class instance or an array', () => {
    expect(() => Slot.make('X', new Money(1) as unknown as Record<string, unknown>)).toThrow(/plain object/);
    expect(() => Slot.make('X', [1, 2] as unknown as Record<string, unknown>)).toThrow(/plain object/);
  });

  it('carries __proto__ and constructor keys of parsed JSON as data, polluting no prototype', async () => {
    const props = JSON.parse(
      '{"message":"m","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},' +
        '"nested":{"__proto__":{"polluted":true}}}',
    ) as Record<string, unknown>;
    testApp.app.registerSlots({
      'header-banner': Slot.make('MaintenanceNotice', props),
      'dashboard-before-cards': Slot.make('Callout', props),
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const response = await request(testApp.app.handler).get('/slots');
    expect(response.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Parse the raw text the way a client does: JSON.parse keeps `__proto__` as an own key.
    const payload = JSON.parse(response.text) as SlotsPayload;
    const delivered = payload.slots['header-banner']?.[0]?.props as Record<string, unknown>;
    expect(Object.keys(delivered)).toEqual(['message', '__proto__', 'constructor', 'nested']);
    expect(Object.getOwnPropertyDescriptor(delivered, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(delivered)).toBe(Object.prototype);
    expect(delivered.constructor).toEqual({ prototype: { polluted: true } });
    expect(response.text).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('delivers the same data through /meta to a signed-in user', async () => {
    await addUser(testApp.app, 'editor', 'editor-password-123', ['acme']);
    const props = JSON.parse('{"__proto__":{"polluted":true},"constructor":{"name":"x"}}') as Record<string, unknown>;
    testApp.app.registerSlots({ 'resource-after-form': Slot.make('AuditNote', props) });
    const agent = request.agent(testApp.app.handler);
    expect((await agent.post('/login').send({ username: 'editor', password: 'editor-password-123' })).status).toBe(200);
    const response = await agent.get('/meta');
    expect(response.status).toBe(200);
    const payload = JSON.parse(response.text) as MetaPayload;
    const delivered = payload.slots['resource-after-form']?.[0]?.props as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(delivered, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
