import { InvalidSlotError, Slot, SLOT_PROPS_MAX_BYTES } from './slot';

describe('Slot.make', () => {
  it('keeps the component name and props, and defaults props to {}', () => {
    const slot = Slot.make('LoginNotice', { title: 'Hello', text: 'World' });
    expect(slot.component).toBe('LoginNotice');
    expect(slot.props).toEqual({ title: 'Hello', text: 'World' });
    expect(Slot.make('TenantSwitcher').props).toEqual({});
  });

  it('treats props null as {}', () => {
    expect(Slot.make('TenantSwitcher', null).props).toEqual({});
    expect(Slot.make('TenantSwitcher', null).toEntry()).toEqual({ component: 'TenantSwitcher', props: {} });
  });

  it.each([[''], [' Notice'], ['1Notice'], ['Notice!'], ['<script>'], ['a'.repeat(129)]])(
    'refuses the component name %j',
    (name) => {
      expect(() => Slot.make(name)).toThrow(InvalidSlotError);
      expect(() => Slot.make(name)).toThrow(/Slot component must be a non-empty name/);
    },
  );

  it('refuses a component name that is not a string', () => {
    expect(() => Slot.make(undefined as unknown as string)).toThrow(InvalidSlotError);
    expect(() => Slot.make(42 as unknown as string)).toThrow(/got a number/);
  });

  it('accepts names with digits, dots, dashes, underscores and slashes', () => {
    for (const name of ['Callout', 'team_records/ActivityTimeline', 'ui.Button-2']) {
      expect(Slot.make(name).component).toBe(name);
    }
  });

  it.each<[string, unknown, RegExp]>([
    ['a function', { onClick: () => undefined }, /props\.onClick is a function/],
    ['a class instance', { when: new Date(0) }, /props\.when is a Date/],
    ['a Map', { lookup: new Map() }, /props\.lookup is a Map/],
    ['NaN', { limit: Number.NaN }, /props\.limit is NaN/],
    ['Infinity', { limit: Number.POSITIVE_INFINITY }, /props\.limit is Infinity/],
    [
      'undefined',
      { title: undefined },
      /props\.title is undefined; props must be plain JSON data \(leave the key out instead\)/,
    ],
    ['a bigint', { big: BigInt(1) }, /props\.big is a bigint/],
    ['a symbol', { s: Symbol('x') }, /props\.s is a symbol/],
    ['a nested function', { links: [{ label: 'a', href: () => '/' }] }, /props\.links\[0\]\.href is a function/],
  ])('refuses props holding %s, naming the slot and the place', (_what, props, message) => {
    expect(() => Slot.make('Widget', props as Record<string, unknown>)).toThrow(InvalidSlotError);
    expect(() => Slot.make('Widget', props as Record<string, unknown>)).toThrow(/^Slot "Widget": /);
    expect(() => Slot.make('Widget', props as Record<string, unknown>)).toThrow(message);
  });

  it('refuses props that are not a plain object', () => {
    expect(() => Slot.make('Widget', [] as unknown as Record<string, unknown>)).toThrow(/props must be a plain object/);
    expect(() => Slot.make('Widget', new Date() as unknown as Record<string, unknown>)).toThrow(/got a Date/);
    expect(() => Slot.make('Widget', 'x' as unknown as Record<string, unknown>)).toThrow(InvalidSlotError);
  });

  it.each(['key', 'ref'])('refuses the prop "%s", which React keeps and the component never gets', (name) => {
    expect(() => Slot.make('InvoiceBanner', { [name]: 'a', amountDue: 1 })).toThrow(
      `Slot "InvoiceBanner": the prop "${name}" is reserved by React and would never reach the component; rename it.`,
    );
    // Deeper down it is ordinary data.
    expect(Slot.make('InvoiceBanner', { rows: [{ key: 'a', ref: 'b' }] }).props).toEqual({
      rows: [{ key: 'a', ref: 'b' }],
    });
  });

  it('refuses circular props', () => {
    const props: Record<string, unknown> = { a: 1 };
    props.self = props;
    expect(() => Slot.make('Widget', props)).toThrow(/props\.self is a circular reference/);
  });

  it('accepts the same object twice when it is not circular', () => {
    const shared = { label: 'x', href: '/' };
    expect(Slot.make('Links', { a: shared, b: [shared] }).props).toEqual({ a: shared, b: [shared] });
  });

  it('accepts props with a null prototype', () => {
    const props = Object.assign(Object.create(null) as Record<string, unknown>, { title: 't' });
    expect(Slot.make('Widget', props).props).toEqual({ title: 't' });
  });

  it(`refuses props over ${SLOT_PROPS_MAX_BYTES} bytes of JSON and accepts them just under`, () => {
    // {"text":"..."} is 11 bytes around the text.
    const fits = { text: 'x'.repeat(SLOT_PROPS_MAX_BYTES - 11) };
    expect(() => Slot.make('Big', fits)).not.toThrow();
    const tooBig = { text: 'x'.repeat(SLOT_PROPS_MAX_BYTES - 10) };
    expect(() => Slot.make('Big', tooBig)).toThrow(/Slot "Big": props take 16385 bytes as JSON, more than the 16384/);
    // Counted in UTF-8 bytes, not characters.
    expect(() => Slot.make('Big', { text: 'é'.repeat(SLOT_PROPS_MAX_BYTES / 2) })).toThrow(/more than the/);
  });

  it('keeps a frozen copy: changing the given object later changes nothing', () => {
    const given = { links: [{ label: 'Docs', href: '/docs' }] };
    const slot = Slot.make('FooterLinks', given);
    given.links[0]!.label = 'changed';
    given.links.push({ label: 'x', href: 'y' });
    expect(slot.props).toEqual({ links: [{ label: 'Docs', href: '/docs' }] });
    expect(Object.isFrozen(slot)).toBe(true);
    expect(Object.isFrozen(slot.props)).toBe(true);
    expect(Object.isFrozen(slot.props.links)).toBe(true);
  });

  describe('content', () => {
    it('accepts a string', () => {
      const slot = Slot.make('Callout', { tone: 'info' }, 'Read me');
      expect(slot.content).toBe('Read me');
      expect(slot.toEntry()).toEqual({ component: 'Callout', props: { tone: 'info' }, content: 'Read me' });
    });

    it('accepts a Slot and delivers it as a nested entry', () => {
      const slot = Slot.make('Callout', { tone: 'success' }, Slot.make('WelcomeCard', { title: 'Hi' }));
      expect(slot.toEntry()).toEqual({
        component: 'Callout',
        props: { tone: 'success' },
        content: { component: 'WelcomeCard', props: { title: 'Hi' } },
      });
    });

    it('accepts a list of Slots, nested as deep as wanted, and freezes the list', () => {
      const inner = Slot.make('Badge', {}, 'new');
      const given = [Slot.make('A'), Slot.make('B', {}, inner)];
      const slot = Slot.make('Group', {}, given);
      given.push(Slot.make('C'));
      expect(slot.toEntry()).toEqual({
        component: 'Group',
        props: {},
        content: [
          { component: 'A', props: {} },
          { component: 'B', props: {}, content: { component: 'Badge', props: {}, content: 'new' } },
        ],
      });
      expect(Object.isFrozen(slot.content)).toBe(true);
    });

    it('treats null and undefined as no content, and then toEntry has no content field', () => {
      for (const content of [null, undefined]) {
        const entry = Slot.make('Widget', {}, content).toEntry();
        expect(entry).toEqual({ component: 'Widget', props: {} });
        expect('content' in entry).toBe(false);
      }
    });

    it('keeps an empty string as content', () => {
      expect(Slot.make('Callout', {}, '').toEntry()).toEqual({ component: 'Callout', props: {}, content: '' });
    });

    it.each<[string, unknown]>([
      ['a number', 42],
      ['a boolean', true],
      ['a plain object', { component: 'Fake', props: {} }],
      ['a list with a non-Slot', [Slot.make('A'), 'text']],
      ['a function', () => 'x'],
      ['a Date', new Date()],
    ])('refuses %s, naming the slot', (_what, content) => {
      expect(() => Slot.make('Callout', { tone: 'info' }, content)).toThrow(InvalidSlotError);
      expect(() => Slot.make('Callout', { tone: 'info' }, content)).toThrow(
        /^Slot "Callout": content must be null, a string, a Slot or a list of Slots/,
      );
    });

    it.each([
      ['a visibility rule', { visibleWhen: { roles: ['operator'] } }, 'visibleWhen'],
      ['an id and an order', { id: 'ops-card', before: 'other' }, 'id, before'],
    ])(
      'refuses a content slot given %s, which would be dropped: a rule would then not keep it from anyone',
      (_what, placement, named) => {
        const placed = Slot.make('WelcomeCard', { title: 'OPS-ONLY' }).placed(placement);
        for (const content of [placed, [Slot.make('Plain'), placed]]) {
          expect(() => Slot.make('Callout', { tone: 'info' }, content)).toThrow(
            `Slot "Callout": its content slot "WelcomeCard" is placed (${named}), but content is shown with the slot ` +
              "that holds it, whole: an id, an order or a visibility rule applies to a location's slots only. Register " +
              '"WelcomeCard" at the location itself, or give the rule to "Callout".',
          );
        }
        // Deeper down too: each slot checks its own content when it is made.
        expect(() => Slot.make('Outer', {}, Slot.make('Callout', {}, placed))).toThrow(/content slot "WelcomeCard"/);
      },
    );
  });

  it('serialises through toJSON as its entry', () => {
    const slot = Slot.make('Callout', { tone: 'info' }, 'x');
    expect(JSON.parse(JSON.stringify(slot))).toEqual(slot.toEntry());
  });

  describe('__proto__ keys', () => {
    it('keeps a __proto__ key of parsed JSON as data and pollutes no prototype', () => {
      const props = JSON.parse('{"__proto__":{"polluted":true},"title":"t"}') as Record<string, unknown>;
      const slot = Slot.make('Widget', props);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(slot.props)).toBe(Object.prototype);
      expect((slot.props as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype.hasOwnProperty.call(slot.props, '__proto__')).toBe(true);
      expect(JSON.stringify(slot.toEntry())).toBe(
        '{"component":"Widget","props":{"__proto__":{"polluted":true},"title":"t"}}',
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('keeps a nested __proto__ key as data as well', () => {
      const props = JSON.parse('{"links":[{"__proto__":{"isAdmin":true}}]}') as Record<string, unknown>;
      const slot = Slot.make('Links', props);
      const link = (slot.props.links as Array<Record<string, unknown>>)[0]!;
      expect(link.isAdmin).toBeUndefined();
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });
  });
});
