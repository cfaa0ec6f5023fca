import type { Request } from 'express';
import { rolesForRules } from '../../shared';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import type { Viewer } from './visibility-rule';

/**
 * The viewer a signed-in request's rules are evaluated for: its user's roles as rules see them (an account without a
 * role is an editor: shared/staff-roles.ts), its tenant, that tenant's flags.
 */
export async function requestViewer(req: Request, tenant: string, flags: FeatureFlagStore): Promise<Viewer> {
  return { roles: rolesForRules(req.user?.roles), tenant, flags: await flags.enabledFor(tenant) };
}
