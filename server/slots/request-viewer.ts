import { rolesForRules } from '../../shared';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import type { TenantContext } from '../auth/current-tenant';
import type { Viewer } from './visibility-rule';

/**
 * The viewer a signed-in request's rules are evaluated for: the user's roles (as rules see them: an account that
 * may change records counts as an editor) and permissions in the current tenant, that tenant, its flags.
 */
export async function requestViewer(context: TenantContext, flags: FeatureFlagStore): Promise<Viewer> {
  const { roles, permissions } = context.access;
  const tenant = context.current.id;
  return { roles: rolesForRules(roles, permissions), permissions, tenant, flags: await flags.enabledFor(tenant) };
}
