import type { RemoteRegistry } from './remote-registry';
import type { PendingRemote } from './remotes-config';

/** Every status a remote declared by entry can be in: the last request for its descriptor, or none yet. */
export const DESCRIPTOR_STATUSES = ['answered', 'released', 'waiting', 'down', 'timed-out', 'bad-answer'] as const;

export type DescriptorStatus = (typeof DESCRIPTOR_STATUSES)[number];

/**
 * The status of a remote declared by entry, decided here only, so that the slot inspector and `/metrics` never say
 * two things of one remote: `released` when a release in force serves it (whatever its origin answered before the
 * release was put in force, and whether or not its origin was asked since a restart), except the release
 * REMOTES_CONFIG's entry itself became (same entry), which is shown as the answer its last request got; otherwise
 * `answered`, what the last request for its descriptor failed with (`down`, `timed-out`, `bad-answer`), or `waiting`.
 */
export function descriptorStatus(
  registry: Pick<RemoteRegistry, 'stateOf' | 'isReleased' | 'remotes'>,
  remote: PendingRemote,
): DescriptorStatus {
  const state = registry.stateOf(remote.name);
  if (registry.isReleased(remote.name)) {
    const served = registry.remotes().find((each) => each.name === remote.name);
    if (state.status !== 'ready' || served?.entry !== remote.entry) return 'released';
  }
  if (state.status === 'ready') return 'answered';
  return state.status === 'failing' ? state.failure : 'waiting';
}
