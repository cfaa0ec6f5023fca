import type { StaffPermission } from '../../shared';
import { administrators, lastAdministratorProblem, type AccessSnapshot } from './administrators';

type Account = {
  name: string;
  role?: string;
  grants?: string[];
  disabled?: boolean;
  tenants?: Record<string, string | null>;
};

function snapshot(tenantIds: string[], accounts: Account[]): AccessSnapshot {
  return {
    tenantIds,
    accounts: accounts.map((account, index) => ({
      user: {
        id: index + 1,
        username: account.name,
        displayName: account.name,
        credentialStamp: '',
        roles: account.role ? [account.role] : [],
        grantedPermissions: (account.grants ?? []) as StaffPermission[],
      },
      disabled: account.disabled ?? false,
    })),
    memberships: new Map(accounts.map((account, index) => [index + 1, new Map(Object.entries(account.tenants ?? {}))])),
  };
}

describe('administrators', () => {
  it('are the enabled accounts of a tenant holding the permission in every tenant, by the rule of requests', () => {
    const found = administrators(
      snapshot(
        ['acme', 'globex'],
        [
          { name: 'own-role', role: 'operator', tenants: { acme: null } },
          // Operator of acme only: in globex (no member) its own role, none, applies: it changes nothing for all.
          { name: 'one-tenant', tenants: { acme: 'operator' } },
          // Its own role is lowered to viewer in globex, where it is a member.
          { name: 'lowered', role: 'operator', tenants: { acme: null, globex: 'viewer' } },
          { name: 'granted', grants: ['placements:edit'], tenants: { globex: null } },
          { name: 'disabled', role: 'operator', disabled: true, tenants: { acme: null } },
          { name: 'no-tenant', role: 'operator' },
        ],
      ),
    );
    expect(Object.fromEntries(found)).toEqual({
      'releases:manage': ['own-role'],
      'placements:edit': ['own-role', 'granted'],
    });
  });

  it('say what a change would leave nobody able to do, and nothing where nobody could before', () => {
    const before = snapshot(
      ['acme'],
      [
        { name: 'ann', role: 'operator', tenants: { acme: null } },
        { name: 'bob', grants: ['placements:edit'], tenants: { acme: null } },
      ],
    );
    const withoutAnn = snapshot(['acme'], [{ name: 'bob', grants: ['placements:edit'], tenants: { acme: null } }]);
    expect(lastAdministratorProblem(before, withoutAnn)).toBe(
      '"ann" is the last account able to use releases:manage (manage the releases of remotes, for every tenant), ' +
        'and no account could after this',
    );
    const editors = snapshot(['acme'], [{ name: 'eve', tenants: { acme: null } }]);
    expect(lastAdministratorProblem(editors, snapshot(['acme'], []))).toBeNull();
  });
});
