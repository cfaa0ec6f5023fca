import type { RequestHandler } from 'express';
import { PERMISSION_REFUSED, type StaffPermission } from '../../shared';
import { HttpError } from '../http/http-error';
import { accessIn } from './staff-access';
import type { StaffUser } from './staff-user';
import { currentTenant } from './current-tenant';
import { noSessionRefusal } from './no-session-refusal';
import type { TenantStore } from '../tenants/tenant-store';

/**
 * The guard of a route that needs a permission in the current tenant (shared/staff-permissions.ts): 401 without a
 * session (403 for a bearer token: no-session-refusal.ts), 403 saying why for staff without it (their role in this
 * tenant, or no tenant at all). Routes name the permission, never a role: which roles grant it is said once, in
 * ROLE_PERMISSIONS. `changesReachEveryTenant` (releases, placements: what every tenant is served): a change needs the
 * permission in every tenant, reads in the current one.
 */
export function requirePermission(
  permission: StaffPermission,
  tenants: TenantStore,
  options: { changesReachEveryTenant?: boolean } = {},
): RequestHandler {
  return (req, _res, next) => {
    if (!req.user) {
      next(noSessionRefusal(req));
      return;
    }
    const user = req.user;
    currentTenant(req, tenants).then(async (context) => {
      if (!context.access.permissions.includes(permission)) {
        next(new HttpError('forbidden', PERMISSION_REFUSED[permission]));
        return;
      }
      if (options.changesReachEveryTenant && req.method !== 'GET' && req.method !== 'HEAD') {
        const refusal = await everyTenantRefusal(permission, user, tenants);
        if (refusal !== null) {
          next(new HttpError('forbidden', refusal));
          return;
        }
      }
      next();
    }, next);
  };
}

/**
 * Why a change that reaches every tenant (releases, placements) is refused to `user`, or null when it is not: the
 * 403 of such a change, and what the pages say before anything is tried (the GET of releases and of the placements
 * draft carries it, so a page shows what it can do instead of offering changes it would refuse).
 */
export async function everyTenantRefusal(
  permission: StaffPermission,
  user: StaffUser,
  tenants: TenantStore,
): Promise<string | null> {
  const lacking = await tenantWithout(permission, user, tenants);
  if (lacking === null) return null;
  return (
    `${PERMISSION_REFUSED[permission]} What it changes reaches every tenant, so it needs that permission in each, ` +
    `and your account does not have it in ${lacking}.`
  );
}

/**
 * A tenant where `user` lacks `permission` (by name when they belong to it), or null: their membership's role
 * there, else (not a member) their account's own role, with their grants (staff-access.ts). Without this, an operator
 * of one tenant only could change what every other tenant is served (releases, placements) by switching to the
 * tenant where they are one.
 */
export async function tenantWithout(
  permission: StaffPermission,
  user: StaffUser,
  tenants: TenantStore,
): Promise<string | null> {
  const memberships = await tenants.membershipsOf(user.id);
  const member = new Set(memberships.tenants.map((tenant) => tenant.id));
  for (const tenant of memberships.tenants) {
    if (!accessIn(user, memberships.roles.get(tenant.id)).permissions.includes(permission)) return tenant.name;
  }
  const outside = (await tenants.list()).find((tenant) => !member.has(tenant.id));
  // Not named: which tenants exist beyond one's own is not for a member of one to learn (shown-rule.ts).
  if (outside !== undefined && !accessIn(user, null).permissions.includes(permission)) {
    return 'a tenant it does not belong to';
  }
  return null;
}
