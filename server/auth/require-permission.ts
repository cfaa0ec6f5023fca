import type { RequestHandler } from 'express';
import { PERMISSION_REFUSED, type StaffPermission } from '../../shared';
import { HttpError } from '../http/http-error';
import { currentTenant } from '../tenants/current-tenant';
import type { TenantStore } from '../tenants/tenant-store';

/**
 * The guard of a route that needs a permission in the current tenant (shared/staff-permissions.ts): 401 without a
 * session, 403 saying why for staff without it (their role in this tenant, or no tenant at all). Routes name the
 * permission, never a role: which roles grant it is said once, in ROLE_PERMISSIONS.
 */
export function requirePermission(permission: StaffPermission, tenants: TenantStore): RequestHandler {
  return (req, _res, next) => {
    if (!req.user) {
      next(HttpError.unauthenticated());
      return;
    }
    currentTenant(req, tenants).then((context) => {
      if (context.access.permissions.includes(permission)) next();
      else next(new HttpError('forbidden', PERMISSION_REFUSED[permission]));
    }, next);
  };
}
