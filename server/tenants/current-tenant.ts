import type { Request } from 'express';
import type { Tenant } from '../../shared';
import { accessIn, type StaffAccess } from '../auth/staff-access';
import type { StaffUser } from '../auth/staff-user';
import { HttpError } from '../http/http-error';
import type { Memberships, TenantStore } from './tenant-store';

/** Message when an account is a member of no tenant at all. */
export const NO_TENANT_MESSAGE = 'Your account belongs to no tenant. Ask an administrator to add you to one.';

export interface TenantContext {
  /** Every tenant the user belongs to, in creation order. */
  tenants: readonly Tenant[];
  /** The one the session works in. */
  current: Tenant;
  /** The user's role and permissions in the current tenant (staff-access.ts: its membership's role wins). */
  access: StaffAccess;
}

/**
 * The tenants of the signed-in user and the current one: the session's choice while the user still belongs to it,
 * otherwise the first of their tenants (which the session then remembers).
 */
export async function currentTenant(req: Request, store: TenantStore): Promise<TenantContext> {
  const user = req.user;
  if (!user) throw HttpError.unauthenticated();
  const memberships = await store.membershipsOf(user.id);
  const chosen = req.session.tenant;
  const context = tenantContext(user, memberships, chosen);
  if (!context) throw new HttpError('forbidden', NO_TENANT_MESSAGE);
  if (context.current.id !== chosen) req.session.tenant = context.current.id;
  return context;
}

/**
 * The user's context with `wanted` current when they belong to it, else their first tenant; null when they belong
 * to none. Sign-in and a tenant switch make theirs with it too, so the access always follows the tenant.
 */
export function tenantContext(
  user: StaffUser,
  memberships: Memberships,
  wanted: string | undefined,
): TenantContext | null {
  const current = memberships.tenants.find((tenant) => tenant.id === wanted) ?? memberships.tenants[0];
  if (!current) return null;
  return { tenants: memberships.tenants, current, access: accessIn(user, memberships.roles.get(current.id)) };
}
