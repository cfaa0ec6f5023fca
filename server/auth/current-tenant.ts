import type { Request } from 'express';
import { PAGE_TENANT_HEADER, SESSION_TENANT_HEADER, type Tenant } from '../../shared';
import { accessIn, type StaffAccess } from './staff-access';
import type { StaffUser } from './staff-user';
import { HttpError } from '../http/http-error';
import { noSessionRefusal } from './no-session-refusal';
import type { Memberships, TenantStore } from '../tenants/tenant-store';

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
 * otherwise the first of their tenants (which the session then remembers). The answer says which
 * (SESSION_TENANT_HEADER): a page showing another tenant does not take it for its own (shared/api-client.ts).
 */
export async function currentTenant(req: Request, store: TenantStore): Promise<TenantContext> {
  const user = req.user;
  // Routes that read the tenant without a guard before them (GET /api/slot-stats) refuse as the guards do.
  if (!user) throw noSessionRefusal(req);
  const memberships = await store.membershipsOf(user.id);
  const chosen = req.session.tenant;
  const context = tenantContext(user, memberships, chosen);
  if (!context) throw new HttpError('forbidden', NO_TENANT_MESSAGE);
  if (context.current.id !== chosen) req.session.tenant = context.current.id;
  req.res?.setHeader(SESSION_TENANT_HEADER, context.current.id);
  refuseChangeForAnotherTenant(req, context);
  return context;
}

/**
 * A change asked by a page that shows another tenant than the session works in now: the tenant was switched in
 * another tab (one session for all of a browser's tabs), or the account left the page's tenant. Made, it would land
 * in a tenant the person does not see (a new record created in the other one, an update refused as "no such
 * record"); refused, nothing changes and the message says what happened. Reads are answered, saying in which tenant
 * (the page's client refuses one made in another); a request without the header (a remote's own client, a script)
 * is not checked.
 */
function refuseChangeForAnotherTenant(req: Request, context: TenantContext): void {
  if (req.method === 'GET' || req.method === 'HEAD') return;
  const shown = req.get(PAGE_TENANT_HEADER);
  if (shown === undefined || shown === context.current.id) return;
  const member = context.tenants.find((tenant) => tenant.id === shown);
  const now = context.current.name;
  throw new HttpError(
    'tenant_changed',
    member
      ? `Nothing was changed: this page works in ${member.name}, but your session now works in ${now} ` +
        `(switched in another tab). Reload the page to work in ${now}, or switch back to ${member.name} first.`
      : `Nothing was changed: your account no longer belongs to the tenant this page works in; your session now ` +
        `works in ${now}. Reload the page to work there.`,
  );
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
