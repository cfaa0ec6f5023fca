import type { Request } from 'express';
import type { RemoteDescriptor } from '../../shared';
import type { RemoteRegistry } from '../remotes/remote-registry';
import { previewsOf } from './release-preview';
import type { ReleaseAudience, ReleaseSnapshot } from './release-snapshot';

/** Who a request is, for the choice of releases: its user, tenant and previews (its session, when loaded). */
export function audienceOf(req: Request): ReleaseAudience {
  return { userId: req.user?.id, tenant: req.session?.tenant, previews: previewsOf(req) };
}

/**
 * The remotes a request's page registers: the registry's (active releases in force), with the canary or preview
 * release swapped in where this request gets one, a previewed one marked (`previewedVersion`). Null when the request gets what everyone gets (no canary, no
 * preview): callers then serve their shared, pre-encoded answer.
 */
export function remotesForRequest(
  req: Request,
  registry: RemoteRegistry,
  snapshot: ReleaseSnapshot,
): RemoteDescriptor[] | null {
  const audience = audienceOf(req);
  if (!snapshot.variesFor(audience)) return null;
  return registry.remotes().map((remote) => {
    const chosen = snapshot.choose(remote.name, audience);
    if (!chosen) return remote;
    // Told apart by version, not by address: a team deploying in place publishes each release at the same address,
    // whose components and tag (what its slot events count under) still differ.
    const served =
      chosen.version !== snapshot.rollout(remote.name)?.active ? registry.descriptorOfRelease(chosen) : remote;
    // A preview is said so even of the active release: the page offers to stop it, as the releases page does.
    return audience.previews?.[remote.name] === chosen.version
      ? { ...served, previewedVersion: chosen.version }
      : served;
  });
}
