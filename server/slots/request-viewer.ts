import type { Request } from 'express';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import type { Viewer } from './visibility-rule';

/** The viewer a signed-in request's rules are evaluated for: its user's roles, its tenant, that tenant's flags. */
export async function requestViewer(req: Request, tenant: string, flags: FeatureFlagStore): Promise<Viewer> {
  return { roles: req.user?.roles ?? [], tenant, flags: await flags.enabledFor(tenant) };
}
