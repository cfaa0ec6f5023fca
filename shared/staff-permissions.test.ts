import {
  EDITOR_ROLE,
  OPERATOR_ROLE,
  PERMISSION_REFUSED,
  permissionsOf,
  PLACEMENTS_EDIT,
  RECORDS_READ,
  RECORDS_WRITE,
  RELEASES_MANAGE,
  ROLE_PERMISSIONS,
  rolesForRules,
  STAFF_PERMISSIONS,
  STAFF_ROLES,
  userMay,
  VIEWER_ROLE,
  type CurrentUser,
} from './index';

describe('what each role may do', () => {
  it('grants a viewer reading, an editor writing too, an operator releases and placements too', () => {
    expect(ROLE_PERMISSIONS).toEqual({
      viewer: [RECORDS_READ],
      editor: [RECORDS_READ, RECORDS_WRITE],
      operator: [RECORDS_READ, RECORDS_WRITE, RELEASES_MANAGE, PLACEMENTS_EDIT],
    });
    expect(STAFF_PERMISSIONS).toEqual(['records:read', 'records:write', 'releases:manage', 'placements:edit']);
    // Each role has at least the rights of the one before it.
    for (let i = 1; i < STAFF_ROLES.length; i++) {
      const [lower, higher] = [ROLE_PERMISSIONS[STAFF_ROLES[i - 1]!], ROLE_PERMISSIONS[STAFF_ROLES[i]!]];
      expect(lower.every((permission) => higher.includes(permission))).toBe(true);
    }
    expect(Object.isFrozen(ROLE_PERMISSIONS.viewer)).toBe(true);
  });

  it.each<[string, readonly string[] | undefined, readonly string[], readonly string[]]>([
    ['no role: an editor', [], [], [RECORDS_READ, RECORDS_WRITE]],
    ['no answer at all: an editor', undefined, [], [RECORDS_READ, RECORDS_WRITE]],
    ['a viewer', [VIEWER_ROLE], [], [RECORDS_READ]],
    ['an operator', [OPERATOR_ROLE], [], [...STAFF_PERMISSIONS]],
    ['only an unknown role: an editor', ['auditor'], [], [RECORDS_READ, RECORDS_WRITE]],
    ['a viewer with an unknown role too', [VIEWER_ROLE, 'auditor'], [], [RECORDS_READ]],
    ['a viewer granted releases', [VIEWER_ROLE], [RELEASES_MANAGE], [RECORDS_READ, RELEASES_MANAGE]],
    ['an editor granted what it has', [EDITOR_ROLE], [RECORDS_WRITE, RECORDS_WRITE], [RECORDS_READ, RECORDS_WRITE]],
  ])('gives %s its permissions, in order and once each', (_who, roles, granted, expected) => {
    expect(permissionsOf(roles, granted)).toEqual(expected);
  });

  it('drops granted names it does not know: they never become a right', () => {
    expect(permissionsOf([VIEWER_ROLE], ['everything', 'records:*'])).toEqual([RECORDS_READ]);
  });
});

describe('userMay', () => {
  const user = (extra: Partial<CurrentUser>): CurrentUser => ({
    username: 'ann',
    displayName: 'Ann',
    tenants: [{ id: 'acme', name: 'Acme' }],
    currentTenant: 'acme',
    ...extra,
  });

  it("follows the server's permissions when the answer carries them, whatever the roles say", () => {
    expect(userMay(user({ roles: [VIEWER_ROLE], permissions: [RECORDS_READ, RELEASES_MANAGE] }), RELEASES_MANAGE)).toBe(
      true,
    );
    expect(userMay(user({ roles: [OPERATOR_ROLE], permissions: [RECORDS_READ] }), RECORDS_WRITE)).toBe(false);
  });

  it('derives them from the roles when the answer has none, and refuses without a user', () => {
    expect(userMay(user({ roles: [OPERATOR_ROLE] }), PLACEMENTS_EDIT)).toBe(true);
    expect(userMay(user({ roles: [VIEWER_ROLE] }), RECORDS_WRITE)).toBe(false);
    expect(userMay(user({}), RECORDS_WRITE)).toBe(true);
    expect(userMay(null, RECORDS_READ)).toBe(false);
  });
});

describe('rolesForRules', () => {
  it.each<[readonly string[], readonly string[], readonly string[]]>([
    [[], [RECORDS_READ, RECORDS_WRITE], [EDITOR_ROLE]],
    [[EDITOR_ROLE], [RECORDS_READ, RECORDS_WRITE], [EDITOR_ROLE]],
    [[OPERATOR_ROLE], [...STAFF_PERMISSIONS], [OPERATOR_ROLE, EDITOR_ROLE]],
    [[VIEWER_ROLE], [RECORDS_READ], [VIEWER_ROLE]],
    // A viewer granted records:write may edit: rules for editors reach them.
    [[VIEWER_ROLE], [RECORDS_READ, RECORDS_WRITE], [VIEWER_ROLE, EDITOR_ROLE]],
  ])('shows rules the roles %j with permissions %j as %j', (roles, permissions, seen) => {
    expect(rolesForRules(roles, permissions)).toEqual(seen);
  });
});

it('says why for every permission refused', () => {
  for (const permission of STAFF_PERMISSIONS) expect(PERMISSION_REFUSED[permission]).toMatch(/\w/);
  expect(PERMISSION_REFUSED[RECORDS_WRITE]).toMatch(/viewer role in this tenant/);
});
