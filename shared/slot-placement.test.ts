import { describeRule, InvalidSlotError, ruleNeedsUser, Slot, STAFF_ROLES, type VisibilityRule } from './index';

/** The message of the InvalidSlotError a placement with `rule` is refused with. */
function refusalOf(rule: unknown): string {
  try {
    Slot.make('Notice').placed({ visibleWhen: rule as VisibilityRule });
  } catch (error) {
    if (error instanceof InvalidSlotError) return error.message;
    throw error;
  }
  throw new Error(`${JSON.stringify(rule)} was taken`);
}

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
    ['a fractional priority', { priority: 1.5 }, /"priority" must be an integer, got 1\.5\./],
    ['a string priority', { priority: '1' }, /"priority" must be an integer/],
    ['a bad id', { id: 'has space' }, /"id" must be a slot id/],
    ['before and after the same slot', { before: 'A', after: 'A' }, /"before" and "after" both name "A"/],
    [
      'an unknown operator',
      { visibleWhen: { $xor: [] } },
      /"visibleWhen" has the key "\$xor", which is not a rule key; rule keys: roles, permissions, tenants, flags, \$all, \$any, \$not\./,
    ],
    [
      'two operators in one rule',
      { visibleWhen: { roles: ['operator'], tenants: ['b'] } },
      /"visibleWhen" has 2 keys \(roles, tenants\) where a rule has exactly one: give each its own rule, inside \{"\$all": \[\.\.\.\]\}/,
    ],
    [
      'an empty rule',
      { visibleWhen: {} },
      /"visibleWhen" is an empty object; a rule has one key \(roles, .*\), e.g. \{"roles": \["editor"\]\}\./,
    ],
    [
      'an empty role list',
      { visibleWhen: { roles: [] } },
      /"visibleWhen.roles" must be a non-empty list of role names \(viewer, editor, operator\), got an empty list\./,
    ],
    [
      'a rule in $all that is not one',
      { visibleWhen: { $all: [{ roles: ['operator'] }, 'b'] } },
      /"visibleWhen.\$all\[1\]" must be an object with one rule key \(roles, .*; got the string "b"\./,
    ],
    [
      'a tenant id that is no string',
      { visibleWhen: { tenants: ['acme', 7] } },
      /"visibleWhen.tenants\[1\]" must be a tenant id \(1 to 128 characters\), got a number\./,
    ],
    [
      'a flag name that is not kebab-case',
      { visibleWhen: { flags: ['Beta'] } },
      /"visibleWhen.flags" names the invalid flag name "Beta": a flag name starts with a lower-case letter and has only lower-case letters \(a-z\), digits and "-", at most 64 characters in all/,
    ],
    ['$not around a list', { visibleWhen: { $not: [{ roles: ['a'] }] } }, /"visibleWhen.\$not" must be an object/],
    ['an empty permission list', { visibleWhen: { permissions: [] } }, /"visibleWhen.permissions" must be a non-empty/],
    [
      'an unknown permission, naming it and the known ones',
      { visibleWhen: { $any: [{ roles: ['operator'] }, { permissions: ['records:read', 'records:delete'] }] } },
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

describe('a roles rule', () => {
  it('takes every role an account can hold', () => {
    for (const role of STAFF_ROLES) {
      expect(Slot.make('Notice').placed({ visibleWhen: { roles: [role] } }).placement.visibleWhen).toEqual({
        roles: [role],
      });
    }
  });

  // No account can hold another role (npm run user:add takes these three): such a rule would hide the slot from
  // everyone, silently, as a misspelt permission would.
  it('refuses a role no account can hold, naming it and the roles there are', () => {
    expect(refusalOf({ roles: ['vieweer'] })).toBe(
      'Slot "Notice": "visibleWhen.roles" names the unknown role "vieweer"; roles: viewer, editor, operator.',
    );
    expect(refusalOf({ $not: { roles: ['editor', 'admin', 'auditor', 'admin'] } })).toBe(
      'Slot "Notice": "visibleWhen.$not.roles" names the unknown roles "admin", "auditor"; roles: viewer, editor, ' +
        'operator.',
    );
  });
});

describe('the refusal of a rule of the wrong shape', () => {
  it('says all that is wrong with an object of several keys: their number, which are no rule key, their operands', () => {
    expect(refusalOf({ roles: 'editor', colour: 1 })).toBe(
      'Slot "Notice": "visibleWhen" has 2 keys (roles, colour) where a rule has exactly one. "colour" is not a rule ' +
        'key; rule keys: roles, permissions, tenants, flags, $all, $any, $not. "visibleWhen.roles" must be a ' +
        'non-empty list of role names (viewer, editor, operator), got the string "editor" (write ["editor"]).',
    );
    expect(refusalOf({ $all: [{ colour: 1, size: 2 }] })).toBe(
      'Slot "Notice": "visibleWhen.$all[0]" has 2 keys (colour, size) where a rule has exactly one. "colour", ' +
        '"size" are not rule keys; rule keys: roles, permissions, tenants, flags, $all, $any, $not.',
    );
  });

  it('says that a role list is a list, and how to write a lone role as one', () => {
    expect(refusalOf({ roles: 'editor' })).toBe(
      'Slot "Notice": "visibleWhen.roles" must be a non-empty list of role names (viewer, editor, operator), got ' +
        'the string "editor" (write ["editor"]).',
    );
    expect(refusalOf({ tenants: 'acme' })).toBe(
      'Slot "Notice": "visibleWhen.tenants" must be a non-empty list of tenant ids, got the string "acme" (write ' +
        '["acme"]).',
    );
  });

  it('names every flag name that is none, and says what a flag name may contain', () => {
    expect(refusalOf({ flags: ['beta', 'bad flag!', 'ünïcode', ''] })).toBe(
      'Slot "Notice": "visibleWhen.flags" names the invalid flag names "bad flag!", "ünïcode", "": a flag name ' +
        'starts with a lower-case letter and has only lower-case letters (a-z), digits and "-", at most 64 ' +
        'characters in all (e.g. "new-billing").',
    );
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

  it('counts the tenants a viewer may not read instead of naming them', () => {
    expect(describeRule({ tenants: ['acme', 'globex'], otherTenants: 2 })).toBe(
      'tenant acme or globex or 2 tenants hidden from you',
    );
    expect(describeRule({ $not: { tenants: [], otherTenants: 1 } })).toBe('not 1 tenant hidden from you');
  });
});
