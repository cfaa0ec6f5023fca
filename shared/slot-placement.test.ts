import { describeRule, InvalidSlotError, ruleNeedsUser, Slot } from './index';

describe('Slot.placed', () => {
  it('keeps the slot and adds a frozen placement', () => {
    const base = Slot.make('Notice', { text: 'hi' });
    const placed = base.placed({
      id: 'notice',
      priority: 10,
      after: 'Banner',
      visibleWhen: { $all: [{ roles: ['operator'] }, { $not: { tenants: ['acme'] } }] },
    });
    expect(placed.toEntry()).toEqual(base.toEntry());
    expect(base.placement).toEqual({});
    expect(placed.placement.priority).toBe(10);
    expect(Object.isFrozen(placed.placement)).toBe(true);
    expect(JSON.stringify(placed)).not.toContain('operator');
  });

  it.each<[string, unknown, RegExp]>([
    ['an unknown key', { order: 1 }, /unknown placement key\(s\) order/],
    ['a fractional priority', { priority: 1.5 }, /"priority" must be an integer, got a number/],
    ['a string priority', { priority: '1' }, /"priority" must be an integer/],
    ['a bad id', { id: 'has space' }, /"id" must be a slot id/],
    ['before and after the same slot', { before: 'A', after: 'A' }, /"before" and "after" both name "A"/],
    ['an unknown operator', { visibleWhen: { $xor: [] } }, /"visibleWhen" has the unknown operator "\$xor"/],
    ['two operators in one rule', { visibleWhen: { roles: ['a'], tenants: ['b'] } }, /exactly one of/],
    ['an empty role list', { visibleWhen: { roles: [] } }, /"visibleWhen.roles" must be a non-empty list of names/],
    ['a rule in $all that is not one', { visibleWhen: { $all: [{ roles: ['a'] }, 'b'] } }, /"visibleWhen.\$all\[1\]"/],
    ['a flag name that is not kebab-case', { visibleWhen: { flags: ['Beta'] } }, /"visibleWhen.flags" must be/],
    ['$not around a list', { visibleWhen: { $not: [{ roles: ['a'] }] } }, /"visibleWhen.\$not" must be an object/],
    ['an empty permission list', { visibleWhen: { permissions: [] } }, /"visibleWhen.permissions" must be a non-empty/],
    [
      'an unknown permission, naming it and the known ones',
      { visibleWhen: { $any: [{ roles: ['a'] }, { permissions: ['records:read', 'records:delete'] }] } },
      /"visibleWhen.\$any\[1\].permissions" names the unknown permission "records:delete"; permissions: records:read, records:write, releases:manage, placements:edit\./,
    ],
    ['a permission that is no string', { visibleWhen: { permissions: [7] } }, /names the unknown permission a number/],
  ])('refuses %s, naming the slot', (_, placement, message) => {
    const place = () => Slot.make('Notice').placed(placement as never);
    expect(place).toThrow(InvalidSlotError);
    expect(place).toThrow(/^Slot "Notice": /);
    expect(place).toThrow(message);
  });
});

describe('a permissions rule', () => {
  it('is kept frozen, read as needing a user, and put in words', () => {
    const placed = Slot.make('Notice').placed({ visibleWhen: { $not: { permissions: ['releases:manage'] } } });
    const rule = placed.placement.visibleWhen!;
    expect(rule).toEqual({ $not: { permissions: ['releases:manage'] } });
    expect(Object.isFrozen(rule)).toBe(true);
    expect(ruleNeedsUser(rule)).toBe(true);
    expect(ruleNeedsUser({ flags: ['beta'] })).toBe(false);
    expect(describeRule({ permissions: ['records:write', 'placements:edit'] })).toBe(
      'permission records:write or placements:edit',
    );
  });
});

describe('describeRule', () => {
  it('puts a rule in words', () => {
    expect(
      describeRule({
        $any: [{ $all: [{ roles: ['operator', 'auditor'] }, { flags: ['beta'] }] }, { $not: { tenants: ['acme'] } }],
      }),
    ).toBe('((role operator or auditor and flag beta on) or not tenant acme)');
  });
});
