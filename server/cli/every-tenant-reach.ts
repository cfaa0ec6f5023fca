import { PLACEMENTS_EDIT, RELEASES_MANAGE, type StaffPermission, type Tenant } from '../../shared';
import { tenantWithout } from '../auth/require-permission';
import type { StaffUser } from '../auth/staff-user';
import type { TenantStore } from '../tenants/tenant-store';

/** A permission whose changes reach every tenant, with what it changes, in words. */
interface EveryTenantPermission {
  permission: StaffPermission;
  changes: string;
}

const EVERY_TENANT_PERMISSIONS: readonly EveryTenantPermission[] = [
  { permission: RELEASES_MANAGE, changes: 'the releases of remotes' },
  { permission: PLACEMENTS_EDIT, changes: 'the placements' },
];

/** What an account's own role and grants reach beyond its tenants: which permissions, and which tenants. */
export interface EveryTenantReach {
  permissions: readonly StaffPermission[];
  /** The ids of the tenants it is not a member of. */
  outside: readonly string[];
  /** What those permissions change, in words. */
  changes: string;
}

/**
 * What an account's own role or grants reach in tenants it is not a member of, or null when they reach none.
 * Releases and placements are not a tenant's (require-permission.ts): an account holding `releases:manage` or
 * `placements:edit` in every tenant, by its role of its own or a grant, reads and changes what every tenant is served,
 * other tenants' placements whole included, though it cannot open their records. The lines the account commands
 * printed otherwise (its tenants, its role, its grants) gave no hint of it: an operator granting `placements:edit` to
 * a member of one tenant did not learn that it now reads the placements of the others. `known`: every tenant, when
 * the caller has read them already. An account of no tenant reaches none: it cannot sign in (said as "releases:manage
 * in the other tenants too", of every tenant, it read as an account at work there).
 */
export async function everyTenantReachOf(
  user: StaffUser,
  tenants: TenantStore,
  known?: readonly Tenant[],
): Promise<EveryTenantReach | null> {
  const member = new Set((await tenants.membershipsOf(user.id)).tenants.map((tenant) => tenant.id));
  if (member.size === 0) return null;
  const outside = (known ?? (await tenants.list())).filter((tenant) => !member.has(tenant.id));
  if (outside.length === 0) return null;
  const reaching: EveryTenantPermission[] = [];
  for (const each of EVERY_TENANT_PERMISSIONS) {
    if ((await tenantWithout(each.permission, user, tenants)) === null) reaching.push(each);
  }
  if (reaching.length === 0) return null;
  return {
    permissions: reaching.map((each) => each.permission),
    outside: outside.map((tenant) => tenant.id),
    changes: reaching.map((each) => each.changes).join(' and '),
  };
}

/** everyTenantReachOf said in full, with the way to keep the account to its tenants; null when it reaches none. */
export async function everyTenantReach(
  user: StaffUser,
  tenants: TenantStore,
  known?: readonly Tenant[],
): Promise<string | null> {
  const reach = await everyTenantReachOf(user, tenants, known);
  if (reach === null) return null;
  return (
    `It holds ${reach.permissions.join(' and ')} in every tenant, by its own role or a grant, so it reads and ` +
    `changes ${reach.changes} of tenants it is not a member of too (${reach.outside.join(', ')}). To keep it to its ` +
    'tenants, give it the role there instead (--tenant <id> --role operator, with no role or grant of its own): it ' +
    'then reads their part only and changes nothing that reaches other tenants.'
  );
}
