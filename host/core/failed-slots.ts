import { ExternalStore } from '../loader/external-store';
import type { SlotStatus, SlotStatusEntry } from './slot-status';

/** A slot on the page that did not render. */
export type FailedSlot = SlotStatusEntry & { state: 'failed'; failure: NonNullable<SlotStatusEntry['failure']> };

function isFailed(slot: SlotStatusEntry): slot is FailedSlot {
  return slot.state === 'failed' && slot.failure !== null;
}

/**
 * A view of the slot status: the slots on the page now that failed and left a gap, for what tells the user about
 * them (the "some tools are unavailable" notice, and through it the remotes' status line). Unlike the console log,
 * which says each failure once per page, this follows the page: a slot leaves it when it unmounts or renders after
 * all. A failure covered by its location's fallback (the host's own tenant switcher where the remote's failed) is
 * left out: nothing is missing for the user. The slot status still has it, for the inspector and the log. Readers
 * get a frozen list, the same object until the list changes.
 */
export class FailedSlots extends ExternalStore<readonly FailedSlot[]> {
  /** Locations on screen that show a fallback where all their slots fail, with how many renderers say so. */
  private readonly fallbacks = new Map<string, number>();
  private readonly follow: () => void;

  constructor(status: SlotStatus) {
    super(Object.freeze([]));
    this.follow = () => {
      const slots = status.snapshot();
      const failed = slots.filter(isFailed).filter((slot) => !this.coveredByFallback(slot, slots));
      const current = this.snapshot();
      if (failed.length === current.length && failed.every((slot, index) => slot === current[index])) return;
      this.publish(Object.freeze(failed));
    };
    status.subscribe(this.follow);
    this.follow();
  }

  /**
   * Says that `location` is rendered with a fallback, shown when every slot there failed (AppSlotRenderer's
   * `fallback`); returns what takes that back (the renderer unmounted).
   */
  withFallback(location: string): () => void {
    this.fallbacks.set(location, (this.fallbacks.get(location) ?? 0) + 1);
    this.follow();
    return () => {
      const count = (this.fallbacks.get(location) ?? 0) - 1;
      if (count > 0) this.fallbacks.set(location, count);
      else this.fallbacks.delete(location);
      this.follow();
    };
  }

  /** The fallback shows, so covers the failure, when no slot of its location is loading or rendered. */
  private coveredByFallback(slot: FailedSlot, slots: readonly SlotStatusEntry[]): boolean {
    return (
      this.fallbacks.has(slot.location) &&
      slots.every((other) => other.location !== slot.location || other.state === 'failed')
    );
  }
}
