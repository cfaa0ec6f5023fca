import type { SlotFailureKind } from './slot-failure-reporter';

/** A slot on screen that did not render. */
export interface FailedSlot {
  location: string;
  component: string;
  remote: string | null;
  kind: SlotFailureKind;
}

/**
 * The slots on screen now that failed, for what tells the user about them (the "some tools are unavailable"
 * notice). Unlike the failure log, which says each failure once per page, this follows the page: a slot leaves it
 * when it unmounts or renders after all. Readers get a frozen list, the same object until the next change.
 */
export class FailedSlots {
  private readonly entries = new Map<object, FailedSlot>();
  private current: readonly FailedSlot[] = Object.freeze([]);
  private readonly listeners = new Set<() => void>();

  /** Records (or, with null, clears) the failure of the slot `owner` stands for. */
  set(owner: object, failure: FailedSlot | null): void {
    if (failure === null ? !this.entries.delete(owner) : this.entries.get(owner) === failure) return;
    if (failure !== null) this.entries.set(owner, failure);
    this.current = Object.freeze([...this.entries.values()]);
    for (const listener of [...this.listeners]) listener();
  }

  snapshot(): readonly FailedSlot[] {
    return this.current;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
