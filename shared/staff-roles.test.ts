import { EDITOR_ROLE, mayChangeRecords, OPERATOR_ROLE, rolesForRules, VIEWER_ROLE } from './staff-roles';

describe('staff roles', () => {
  it.each([
    [[], [EDITOR_ROLE]],
    [undefined, [EDITOR_ROLE]],
    [[EDITOR_ROLE], [EDITOR_ROLE]],
    [[OPERATOR_ROLE], [OPERATOR_ROLE, EDITOR_ROLE]],
    [[VIEWER_ROLE], [VIEWER_ROLE]],
    [['auditor'], ['auditor', EDITOR_ROLE]],
    [
      [VIEWER_ROLE, 'auditor'],
      [VIEWER_ROLE, 'auditor'],
    ],
  ])('rules see the roles %j as %j', (held, seen) => {
    expect(rolesForRules(held)).toEqual(seen);
  });

  it('lets everyone but a viewer change records, as rules count editors', () => {
    for (const held of [[], [EDITOR_ROLE], [OPERATOR_ROLE], [VIEWER_ROLE], ['auditor']]) {
      expect([held, mayChangeRecords(held)]).toEqual([held, rolesForRules(held).includes(EDITOR_ROLE)]);
    }
  });
});
