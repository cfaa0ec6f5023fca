import type { RemoteRegistry } from './remote-registry';

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
