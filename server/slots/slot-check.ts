import type { RemoteRegistry } from '../remotes/remote-registry';
import type { RemotesConfig } from '../remotes/remotes-config';
import type { ResourceRegistry } from '../resources/resource-registry';
import { codeSlots } from './code-slots';
import type { SlotProblem } from './slot-contract';
import type { SlotRegistry } from './slot-registry';

/** What the slot check reads: the slots of code and of resource forms, and the remotes that provide components. */
export interface SlotCheckSubjects {
  slots: SlotRegistry;
  resources: ResourceRegistry;
  remoteRegistry: RemoteRegistry;
}

/**
 * The slot check: every slot (code, resource forms, REMOTES_CONFIG) against the remotes' descriptors, those of
 * `config` (a reload being considered) or of the configuration in use. With no remote at all (nothing built, no
 * REMOTES_CONFIG) there is nothing to check against: none is reported.
 */
export function checkSlots(subjects: SlotCheckSubjects, config?: RemotesConfig): SlotProblem[] {
  const { remoteRegistry } = subjects;
  const remotes = remoteRegistry.contractRemotes(config);
  if (remotes.known.length === 0 && remotes.waiting.length === 0 && remotes.disabled.length === 0) return [];
  return [
    ...remoteRegistry.contract.check(codeSlots(subjects.slots, subjects.resources), remotes),
    ...remoteRegistry.configuredSlotProblems(config),
  ];
}
