import { ExternalStore } from '../loader/external-store';
import type { SlotStatus, SlotStatusEntry } from './slot-status';

/** A slot on the page that did not render. */
export type FailedSlot = SlotStatusEntry & { state: 'failed'; failure: NonNullable<SlotStatusEntry['failure']> };

function isFailed(slot: SlotStatusEntry): slot is FailedSlot {
  return slot.state === 'failed' && slot.failure !== null;
}

/**
 * A view of the slot status: the slots on the page now that failed, for what tells the user about them (the "some
 * tools are unavailable" notice). Unlike the console log, which says each failure once per page, this follows the
 * page: a slot leaves it when it unmounts or renders after all. Readers get a frozen list, the same object until
 * the list changes.
 */
export class FailedSlots extends ExternalStore<readonly FailedSlot[]> {
  constructor(status: SlotStatus) {
    super(Object.freeze([]));
    const follow = () => {
      const failed = status.snapshot().filter(isFailed);
      const current = this.snapshot();
      if (failed.length === current.length && failed.every((slot, index) => slot === current[index])) return;
      this.publish(Object.freeze(failed));
    };
    status.subscribe(follow);
    follow();
  }
}
