import type { RemoteRegistry } from './remote-registry';
import type { RemotesConfig } from './remotes-config';

/** Every status a remote declared by entry can be in: the last request to its origin, or none yet. */
export const DESCRIPTOR_STATUSES = ['answered', 'released', 'waiting', 'down', 'timed-out', 'bad-answer'] as const;

export type DescriptorStatus = (typeof DESCRIPTOR_STATUSES)[number];

/**
 * The status of a remote declared by entry, decided here only, so that the slot inspector and `/metrics` never say
 * two things of one remote: what the last request to its origin for the entry it is served from came to
 * (`answered`, `down`, `timed-out`, `bad-answer`), whoever made it — reading its descriptor, the periodic check of
 * the origins of the remotes served (remote-registry.ts), the import of its entry as a release. `released`: served
 * from a release in force whose origin was not asked yet since this host started or the release was put in force;
 * `waiting`: not asked yet.
 */
export function descriptorStatus(
  registry: Pick<RemoteRegistry, 'stateOf' | 'isReleased' | 'originCheckOf'>,
  remote: { name: string },
): DescriptorStatus {
  const check = registry.originCheckOf(remote.name);
  if (check) return check.status;
  if (registry.isReleased(remote.name)) return 'released';
  const state = registry.stateOf(remote.name);
  if (state.status === 'ready') return 'answered';
  return state.status === 'failing' ? state.failure : 'waiting';
}

/**
 * What is said of a remote whose components are known without asking an origin (RemotesConfig's `remotes`), served
 * from no release: `built` when served from this server's build, `listed` when the file lists its components (an
 * added remote, or a built-in one re-pointed by `entry`, whose build's components are kept and whose entry is not
 * asked). The slot inspector and `/metrics` both say it, so that a remote with no status can only be one not
 * configured at all.
 */
export function servedUnaskedStatus(
  config: Pick<RemotesConfig, 'sources'>,
  remote: { name: string; entry: string },
): 'built' | 'listed' {
  return config.sources.builtIn.includes(remote.name) && remote.entry === `/remotes/${remote.name}/mf-manifest.json`
    ? 'built'
    : 'listed';
}
