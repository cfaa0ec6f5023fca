import type { SlotFailureKind } from './slot-failure-reporter';

/** Why a slot of a page is not on screen: a failure, or a media query that does not match. */
export type PageSlotReason = SlotFailureKind | 'hidden-by-media';

/** One slot of a page as the tab last saw it. */
export interface PageSlotStatus {
  location: string;
  /** Its position at the location (or among its parent slot's content). */
  index: number;
  component: string;
  remote: string | null;
  state: 'loading' | 'loaded' | 'failed' | 'hidden';
  /** Set when the state is `failed` or `hidden`. */
  reason?: PageSlotReason;
  /** What failed (the placeholder's message), or the media query that hides it. */
  detail?: string;
}

/** The slots of one page (path) of this tab, in the order they were first seen. */
export interface PageSlots {
  page: string;
  slots: readonly PageSlotStatus[];
}

/**
 * Which slots each page of this tab loaded, which failed and why, and which a media query hid: what the slot
 * inspector shows for "why is my component not on the page?" without the console. Unlike {@link FailedSlots}, which
 * follows what is on screen, this keeps a page's record after the page is left (the inspector is another page).
 * Readers get a frozen list, most recent page first, the same object until the next change.
 */
export class PageSlotRecord {
  private readonly pages = new Map<string, Map<string, PageSlotStatus>>();
  private current: readonly PageSlots[] = Object.freeze([]);
  private readonly listeners = new Set<() => void>();

  /** Records the slot's latest state on `page` (a path). */
  set(page: string, status: PageSlotStatus): void {
    const key = `${status.location}\u0000${status.index}\u0000${status.component}`;
    const previous = this.pages.get(page)?.get(key);
    if (previous && JSON.stringify(previous) === JSON.stringify(status)) return;
    const slots = this.pages.get(page) ?? new Map<string, PageSlotStatus>();
    slots.set(key, Object.freeze({ ...status }));
    // The page just updated moves to the front.
    this.pages.delete(page);
    this.pages.set(page, slots);
    this.current = Object.freeze(
      [...this.pages]
        .reverse()
        .map(([path, statuses]) => Object.freeze({ page: path, slots: Object.freeze([...statuses.values()]) })),
    );
    for (const listener of [...this.listeners]) listener();
  }

  snapshot(): readonly PageSlots[] {
    return this.current;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
