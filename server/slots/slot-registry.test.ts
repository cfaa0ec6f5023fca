import fc from 'fast-check';
import { Slot, SlotLocation } from '../../shared';
import { orderSlots } from './slot-order';
import { SlotRegistrationError, SlotRegistry, type SlotRegistrationMap } from './slot-registry';

const components = (registry: SlotRegistry, location: SlotLocation) =>
  (registry.snapshot().get(location) ?? []).map((slot) => slot.component);

describe('SlotRegistry', () => {
  it('registers one slot or a list per location, keeping registration order and appending on later calls', () => {
    const registry = new SlotRegistry();
    registry.register({ 'login-before-form': Slot.make('First') });
    registry.register({
      'login-before-form': [Slot.make('Second'), Slot.make('Third')],
      'header-banner': Slot.make('Banner'),
    });
    registry.register({ 'login-before-form': Slot.make('Fourth') });
    expect(components(registry, SlotLocation.LOGIN_BEFORE_FORM)).toEqual(['First', 'Second', 'Third', 'Fourth']);
    expect(components(registry, SlotLocation.HEADER_BANNER)).toEqual(['Banner']);
    expect([...registry.snapshot().keys()].map(String)).toEqual(['login-before-form', 'header-banner']);
  });

  it('accepts keys written with SlotLocation values', () => {
    const registry = new SlotRegistry();
    registry.register({ [SlotLocation.TENANT_SWITCHER.value]: Slot.make('TenantSwitcher') });
    expect(components(registry, SlotLocation.TENANT_SWITCHER)).toEqual(['TenantSwitcher']);
  });

  it('moves the version on every registration that adds something', () => {
    const registry = new SlotRegistry();
    expect(registry.version).toBe(0);
    registry.register({ 'login-sidebar': Slot.make('Promo') });
    expect(registry.version).toBe(1);
    registry.register({});
    registry.register({ 'login-sidebar': [] });
    expect(registry.version).toBe(1);
    registry.register({ 'login-sidebar': Slot.make('Promo') });
    expect(registry.version).toBe(2);
  });

  it('hands out frozen snapshots that later registrations do not change', () => {
    const registry = new SlotRegistry();
    registry.register({ 'login-sidebar': Slot.make('A') });
    const before = registry.snapshot();
    registry.register({ 'login-sidebar': Slot.make('B') });
    expect(before.get(SlotLocation.LOGIN_SIDEBAR)?.map((slot) => slot.component)).toEqual(['A']);
    expect(Object.isFrozen(before)).toBe(true);
    expect(Object.isFrozen(before.get(SlotLocation.LOGIN_SIDEBAR))).toBe(true);
  });

  it('refuses an unknown location, naming it and listing the valid ones', () => {
    const registry = new SlotRegistry();
    const register = () => registry.register({ 'login-footer': Slot.make('X') } as unknown as SlotRegistrationMap);
    expect(register).toThrow(SlotRegistrationError);
    expect(register).toThrow(/Unknown slot location "login-footer"/);
    for (const location of SlotLocation.cases()) expect(register).toThrow(location.value);
  });

  it.each<[string, unknown, RegExp]>([
    ['a string', 'Banner', /value for location "header-banner" is the string "Banner", not a Slot or a list of Slots/],
    [
      'a plain object',
      { component: 'Banner', props: {} },
      /value for location "header-banner" is an object, not a Slot/,
    ],
    ['null', null, /value for location "header-banner" is null/],
    ['undefined', undefined, /value for location "header-banner" is undefined/],
    [
      'a list with a non-Slot',
      [Slot.make('A'), { component: 'B' }],
      /item 1 for location "header-banner" is an object, not a Slot/,
    ],
  ])('refuses %s as a value, naming the location', (_what, value, message) => {
    const registry = new SlotRegistry();
    expect(() => registry.register({ 'header-banner': value } as unknown as SlotRegistrationMap)).toThrow(message);
  });

  it('registers nothing of a call that fails', () => {
    const registry = new SlotRegistry();
    expect(() =>
      registry.register({ 'login-sidebar': Slot.make('Fine'), nope: Slot.make('X') } as unknown as SlotRegistrationMap),
    ).toThrow(SlotRegistrationError);
    expect(() =>
      registry.register({
        'login-sidebar': Slot.make('Fine'),
        'header-banner': 'bad',
      } as unknown as SlotRegistrationMap),
    ).toThrow(SlotRegistrationError);
    expect(registry.snapshot().size).toBe(0);
    expect(registry.version).toBe(0);
  });

  it('refuses an id taken by an earlier call, counting component names on from the calls before', () => {
    const registry = new SlotRegistry();
    registry.register({ 'header-banner': Slot.make('Notice') });
    registry.register({ 'header-banner': Slot.make('Banner').placed({ id: 'Notice#2' }) });
    // The second Notice would be `Notice#2`, which the Banner took: refused, and the first call's duplicate check
    // counted Notice across calls (not from one per call).
    expect(() => registry.register({ 'header-banner': Slot.make('Notice') })).toThrow(
      'registerSlots: two slots at "header-banner" have the id "Notice#2"; give one of them another "id".',
    );
    expect(() =>
      registry.register({
        'login-sidebar': Slot.make('Fine'),
        'header-banner': [Slot.make('Other').placed({ id: 'Mine' }), Slot.make('Another').placed({ id: 'Mine' })],
      }),
    ).toThrow('have the id "Mine"');
    // Nothing of the refused calls was kept, the ids they would have taken included.
    expect(registry.snapshot().get(SlotLocation.LOGIN_SIDEBAR)).toBeUndefined();
    registry.register({
      'header-banner': [Slot.make('Other').placed({ id: 'Mine' }), Slot.make('Notice').placed({ id: 'Three' })],
    });
    expect(
      registry
        .placed()
        .get(SlotLocation.HEADER_BANNER)!
        .map((slot) => slot.id),
    ).toEqual(['Notice', 'Notice#2', 'Mine', 'Three']);
    // A slot placed after another turns the full check on: a cycle across calls is still refused (the target of
    // the first is missing until the second comes, which a later registration may mend).
    registry.register({ 'header-banner': Slot.make('Late').placed({ id: 'late', after: 'early' }) });
    expect(() =>
      registry.register({ 'header-banner': Slot.make('Early').placed({ id: 'early', after: 'late' }) }),
    ).toThrow(/cycle|circular|each other/i);
  });

  it('checks a registration against the ids before it without reading every earlier slot again', () => {
    // Counted, not timed: a host registering one slot per call at start-up made each call read every slot before it
    // (8,000 slots took 26 s). A slot whose placement reads are counted stands in for each registered one.
    let reads = 0;
    const counted = (slot: Slot): Slot =>
      Object.create(slot, {
        placement: {
          get: () => {
            reads += 1;
            return slot.placement;
          },
        },
      }) as Slot;
    const registry = new SlotRegistry();
    const count = 2000;
    for (let index = 0; index < count; index++) {
      registry.register({ 'dashboard-before-cards': counted(Slot.make('Card', { index })) });
    }
    expect(reads).toBeLessThan(count * 10);
    expect(registry.placed().get(SlotLocation.DASHBOARD_BEFORE_CARDS)!.at(-1)!.id).toBe(`Card#${count}`);
  });

  it('refuses something that is not a plain object map', () => {
    const registry = new SlotRegistry();
    for (const map of [null, [], new Map([['header-banner', Slot.make('X')]]), 'header-banner']) {
      expect(() => registry.register(map as unknown as SlotRegistrationMap)).toThrow(/takes a plain object/);
    }
  });

  it('treats a __proto__ key from parsed JSON as an unknown location and pollutes nothing', () => {
    const registry = new SlotRegistry();
    const map = JSON.parse('{"__proto__": {"polluted": true}}') as SlotRegistrationMap;
    expect(() => registry.register(map)).toThrow(/Unknown slot location "__proto__"/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  describe('ordering only what a call changed', () => {
    const LOCATIONS = [
      SlotLocation.HEADER_BANNER,
      SlotLocation.DASHBOARD_BEFORE_CARDS,
      SlotLocation.GLOBAL_AFTER_CONTENT,
    ];
    const NAMES = ['A', 'B', 'C', 'D'];
    const slot = fc
      .record(
        {
          component: fc.constantFrom(...NAMES),
          priority: fc.integer({ min: 0, max: 2 }),
          after: fc.constantFrom(...NAMES),
        },
        { requiredKeys: ['component'] },
      )
      .map(({ component, ...placement }) => Slot.make(component).placed(placement));
    const placedSlot = fc.record({ location: fc.constantFrom(...LOCATIONS), slot });
    it('holds, after registrations one at a time and configuration swaps between them, each location ordered anew', () => {
      fc.assert(
        fc.property(
          fc.array(placedSlot, { maxLength: 30 }),
          fc.array(placedSlot, { maxLength: 6 }),
          fc.nat(30),
          (code, configured, swapAt) => {
            const registry = new SlotRegistry();
            code.forEach(({ location, slot: each }, index) => {
              if (index === swapAt) registry.replaceConfigured(configured.slice(1));
              try {
                registry.register({ [location.value]: each });
              } catch (error) {
                if (!(error instanceof SlotRegistrationError)) throw error;
              }
            });
            registry.replaceConfigured(configured);

            // Code's locations in order of first registration, then those only the configuration fills.
            const kept = registry.registeredByCode();
            const locations = [...new Set([...kept.keys(), ...configured.map((item) => item.location)])];
            const expected = locations.map((location) => {
              const slots = [
                ...(kept.get(location) ?? []),
                ...configured.filter((item) => item.location === location).map((item) => item.slot),
              ];
              const ordered = orderSlots(location.value, slots);
              return { location: location.value, slots: ordered.slots, ids: ordered.ids };
            });
            const held = [...registry.snapshot()].map(([location, slots]) => ({
              location: location.value,
              slots,
              ids: (registry.placed().get(location) ?? []).map((info) => info.id),
            }));
            expect(held).toEqual(expected);
          },
        ),
        { numRuns: 500 },
      );
    });
  });
});
