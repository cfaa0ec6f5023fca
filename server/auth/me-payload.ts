import type { MePayload, SessionTimePayload } from '../../shared';
import type { TenantContext } from './current-tenant';
import type { StaffUser } from './staff-user';

export function mePayload(user: StaffUser, context: TenantContext, session: SessionTimePayload): MePayload {
  return {
    session,
    user: {
      username: user.username,
      displayName: user.displayName,
      tenants: context.tenants.map((tenant) => ({ id: tenant.id, name: tenant.name })),
      currentTenant: context.current.id,
      // What the account is and may do in the current tenant, not its own role alone (staff-access.ts).
      roles: [...context.access.roles],
      permissions: [...context.access.permissions],
    },
  };
}
