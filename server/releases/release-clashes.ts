import type { RemoteRelease } from '../../shared';
import type { RemoteRegistry } from '../remotes/remote-registry';

/**
 * The components of `release` another remote provides now (its active release, a configured or a built-in remote),
 * one line each. One component name has one provider, as the remote registry rules for descriptors (`refuseClash`):
 * the host's component registry would otherwise load whichever remote registered last.
 */
export function releaseClashes(
  registry: RemoteRegistry,
  release: Pick<RemoteRelease, 'remote' | 'components'>,
): string[] {
  const clashes: string[] = [];
  for (const other of registry.remotes()) {
    if (other.name === release.remote) continue;
    for (const component of release.components) {
      if (other.components.includes(component)) {
        clashes.push(`component "${component}" is already provided by "${other.name}"`);
      }
    }
  }
  return clashes;
}
