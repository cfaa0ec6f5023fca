import type { Request } from 'express';
import type { Tenant } from '../../shared';
import { HttpError } from '../http/http-error';
import type { TenantStore } from './tenant-store';

/** Message when an account is a member of no tenant at all. */
export const NO_TENANT_MESSAGE = 'Your account belongs to no tenant. Ask an administrator to add you to one.';

export interface TenantContext {
  /** Every tenant the user belongs to, in creation order. */
  tenants: readonly Tenant[];
  /** The one the session works in. */
  current: Tenant;
}

/**
 * The tenants of the signed-in user and the current one: the session's choice while the user still belongs to it,
 * otherwise the first of their tenants (which the session then remembers).
 */
export async function currentTenant(req: Request, store: TenantStore): Promise<TenantContext> {
  const user = req.user;
  if (!user) throw HttpError.unauthenticated();
  const tenants = await store.tenantsOf(user.id);
  const chosen = req.session.tenant;
  const current = tenants.find((tenant) => tenant.id === chosen) ?? tenants[0];
  if (!current) throw new HttpError('forbidden', NO_TENANT_MESSAGE);
  if (current.id !== chosen) req.session.tenant = current.id;
  return { tenants, current };
}
