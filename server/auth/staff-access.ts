import { permissionsOf, type StaffPermission, type StaffRole } from '../../shared';
import type { StaffUser } from './staff-user';

/** What a signed-in account is and may do in the tenant it works in now. */
export interface StaffAccess {
  /** The role in force there, as a list: the membership's, else the account's own; empty for none (an editor). */
  readonly roles: readonly string[];
  /** That role's permissions and the account's granted ones (shared/staff-permissions.ts). */
  readonly permissions: readonly StaffPermission[];
}

/**
 * The rule of precedence, in one place: a tenant membership's role wins while that tenant is current; without one the
 * account's own role applies; without either the account is an editor. Permissions granted to the account are added
 * in every tenant (they never take a role's away). Documented in docs/operators/security.md#roles.
 */
export function accessIn(user: StaffUser, membershipRole: StaffRole | null | undefined): StaffAccess {
  const roles = membershipRole ? [membershipRole] : user.roles;
  return Object.freeze({
    roles: Object.freeze([...roles]),
    permissions: Object.freeze(permissionsOf(roles, user.grantedPermissions)),
  });
}
