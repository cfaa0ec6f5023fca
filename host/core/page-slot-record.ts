import { ExternalStore } from '../loader/external-store';
import { isTimeout, type SlotFailureKind, type SlotStatus, type SlotStatusEntry } from './slot-status';

/**
 * Why a slot of a page is not on screen: a failure (`timed-out` when its remote did not answer in time, told from
 * the failure's message, which is not kept), or a media query that does not match.
 */
export type PageSlotReason = SlotFailureKind | 'timed-out' | 'hidden-by-media';

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

/** The sessionStorage key of the record: one per tab and origin. */
export const PAGE_SLOT_RECORD_KEY = 'slots:page-slot-record';
/** The pages kept: enough for "the page before the inspector" and a few before it, never a browsing history. */
export const PAGE_SLOT_RECORD_PAGES = 5;
/** The slots kept per page: a page with more is recorded up to this many (the first ones seen). */
const SLOTS_PER_PAGE = 200;

const STATES: ReadonlySet<string> = new Set<PageSlotStatus['state']>(['loading', 'loaded', 'failed', 'hidden']);
const REASONS: ReadonlySet<string> = new Set<PageSlotReason>([
  'unknown-component',
  'not-a-form-component',
  'remote-unavailable',
  'timed-out',
  'load-error',
  'render-error',
  'props-invalid',
  'hidden-by-media',
]);

/**
 * A view of the slot status: which slots each page of this tab loaded, which failed and why, and which a media query
 * hid: what the slot inspector shows for "why is my component not on the page?" without the console. Unlike the
 * failed-slots list, which follows what is on screen, this keeps a page's record after the page is left (the
 * inspector is another page).
 * Readers get a frozen list, most recent page first, the same object until the next change.
 *
 * Given a storage (the tab's sessionStorage), the record also outlives a full page load: in production the inspector
 * is reached by typing its address. Stored are the last {@link PAGE_SLOT_RECORD_PAGES} pages with each slot's
 * location, position, component, remote, state and reason, never a failure's message (it may quote props, which may
 * be protected data), only the media query that hides a slot. When the storage is missing or throws, the record
 * carries on in memory.
 */
export class PageSlotRecord extends ExternalStore<readonly PageSlots[]> {
  private readonly pages = new Map<string, Map<string, PageSlotStatus>>();
  private storage: Storage | null;
  /**
   * The page whose visit slots last joined, in this page load (null before any): a slot joining another page starts
   * that page's visit, and its record afresh (see `follow`).
   */
  private visiting: string | null = null;
  /**
   * The slots a media query hid, per page, as told in this page load: the slot status tells a place hidden once per
   * page load, not again at each visit, so a new visit of the page keeps them.
   */
  private readonly hiddenThisLoad = new Map<string, Map<string, PageSlotStatus>>();

  constructor(storage: () => Storage | null = () => null) {
    super(Object.freeze([]));
    this.storage = storage();
    for (const { page, slots } of [...this.read()].reverse()) {
      this.pages.set(page, new Map(slots.map((slot) => [keyOf(slot), Object.freeze(slot)])));
    }
    this.publishPages();
  }

  /**
   * Writes the record again when the page is left (`pagehide` on `target`): the inspector is often reached by typing
   * its address, a full page load, and what the tab keeps must then be what this page saw. Something else may have
   * emptied the storage meanwhile (sign-out's `Clear-Site-Data` lands after the sign-in page has written), and
   * between two transitions nothing else writes. Returns what stops it.
   */
  saveOnPageHide(target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>): () => void {
    const save = () => this.write();
    target.addEventListener('pagehide', save);
    return () => target.removeEventListener('pagehide', save);
  }

  /**
   * Records every transition the slot status tells from now on; returns what stops it. A page's record is what its
   * latest visit rendered: a slot joining a page other than the one visited last (a full page load, or a navigation
   * back to a page seen before) starts that page's record afresh, so nothing of an earlier visit (loaded then, not
   * rendered now) stays listed. Within a visit the slots join in several passes (the slot data arrives, nested
   * content renders, a remote loads), all kept. Slots of the page still on screen (the layout's, which joined the
   * page the tab was on when they first rendered) and the places hidden on it in this page load are kept too.
   */
  follow(status: SlotStatus): () => void {
    return status.onTransition(({ slot, previous }) => {
      const recorded = pageSlotStatus(slot);
      if (previous === null && slot.page !== this.visiting) {
        this.visiting = slot.page;
        this.startVisit(slot.page, status.snapshot());
      }
      if (recorded.state === 'hidden') {
        const hidden = this.hiddenThisLoad.get(slot.page) ?? new Map<string, PageSlotStatus>();
        hidden.set(keyOf(recorded), Object.freeze(recorded));
        this.hiddenThisLoad.set(slot.page, hidden);
      }
      this.set(slot.page, recorded);
    });
  }

  /** Records the slot's latest state on `page` (a path). */
  set(page: string, status: PageSlotStatus): void {
    const key = keyOf(status);
    const previous = this.pages.get(page)?.get(key);
    if (previous && JSON.stringify(previous) === JSON.stringify(status)) return;
    const slots = this.pages.get(page) ?? new Map<string, PageSlotStatus>();
    if (!slots.has(key) && slots.size >= SLOTS_PER_PAGE) return;
    slots.set(key, Object.freeze({ ...status }));
    // The page just updated moves to the front; the oldest beyond the bound are forgotten.
    this.pages.delete(page);
    this.pages.set(page, slots);
    for (const oldest of [...this.pages.keys()].slice(0, Math.max(0, this.pages.size - PAGE_SLOT_RECORD_PAGES))) {
      this.pages.delete(oldest);
    }
    this.publishPages();
    this.write();
  }

  /** Forgets every page, in memory and in the storage: on sign-out. */
  clear(): void {
    this.pages.clear();
    this.visiting = null;
    this.hiddenThisLoad.clear();
    this.publishPages();
    try {
      this.storage?.removeItem(PAGE_SLOT_RECORD_KEY);
    } catch {
      this.storage = null;
    }
  }

  /**
   * A new visit of `page`: its record becomes what of it is still on screen (`onPage`, the slot status's snapshot)
   * and hidden in this page load; the slot whose joining started the visit is recorded next, by the caller.
   */
  private startVisit(page: string, onPage: readonly SlotStatusEntry[]): void {
    const current = new Map<string, PageSlotStatus>(this.hiddenThisLoad.get(page));
    for (const slot of onPage) {
      if (slot.page !== page) continue;
      const status = pageSlotStatus(slot);
      current.set(keyOf(status), Object.freeze(status));
    }
    const before = this.pages.get(page);
    // In the order they were first seen, as ever; what the record did not have yet after them.
    const kept = new Map<string, PageSlotStatus>();
    for (const key of before?.keys() ?? []) {
      const status = current.get(key);
      if (status !== undefined) kept.set(key, status);
    }
    for (const [key, status] of current) {
      if (!kept.has(key) && kept.size < SLOTS_PER_PAGE) kept.set(key, status);
    }
    if (before === undefined && kept.size === 0) return;
    if (before !== undefined && JSON.stringify([...before]) === JSON.stringify([...kept])) return;
    // In place: the page keeps its position until the slot that follows moves it to the front.
    this.pages.set(page, kept);
    this.publishPages();
    this.write();
  }

  private publishPages(): void {
    this.publish(
      Object.freeze(
        [...this.pages]
          .reverse()
          .map(([path, statuses]) => Object.freeze({ page: path, slots: Object.freeze([...statuses.values()]) })),
      ),
    );
  }

  /** The stored pages, most recent first; what is not a well-formed record is left out. */
  private read(): PageSlots[] {
    let text: string | null;
    try {
      text = this.storage?.getItem(PAGE_SLOT_RECORD_KEY) ?? null;
    } catch {
      this.storage = null;
      return [];
    }
    if (text === null) return [];
    let stored: unknown;
    try {
      stored = JSON.parse(text);
    } catch {
      return [];
    }
    if (!Array.isArray(stored)) return [];
    return stored.slice(0, PAGE_SLOT_RECORD_PAGES).flatMap((entry: unknown) => {
      if (!isObject(entry) || typeof entry.page !== 'string' || !Array.isArray(entry.slots)) return [];
      const slots = entry.slots.slice(0, SLOTS_PER_PAGE).flatMap((slot: unknown) => {
        const status = storedStatus(slot);
        return status === null ? [] : [status];
      });
      return [{ page: entry.page, slots }];
    });
  }

  private write(): void {
    if (this.storage === null) return;
    const stored = this.snapshot().map(({ page, slots }) => ({ page, slots: slots.map(toStored) }));
    try {
      this.storage.setItem(PAGE_SLOT_RECORD_KEY, JSON.stringify(stored));
    } catch {
      // Full or refused storage: the record carries on in memory for this page load.
      this.storage = null;
    }
  }
}

/** A slot status entry as the record keeps it. */
function pageSlotStatus(slot: SlotStatusEntry): PageSlotStatus {
  const { location, index, component, remote } = slot;
  const place = { location, index, component, remote };
  switch (slot.state) {
    case 'loading':
      return { ...place, state: 'loading' };
    case 'rendered':
      return { ...place, state: 'loaded' };
    case 'failed':
      return slot.failure === null
        ? { ...place, state: 'failed' }
        : {
            ...place,
            state: 'failed',
            reason: isTimeout(slot.failure) ? 'timed-out' : slot.failure.kind,
            detail: slot.failure.message,
          };
    case 'hidden':
      return {
        ...place,
        state: 'hidden',
        reason: 'hidden-by-media',
        detail: `${slot.media ?? 'a media query'} does not match this window`,
      };
  }
}

function keyOf(status: PageSlotStatus): string {
  return `${status.location}\u0000${status.index}\u0000${status.component}`;
}

/** What is stored of a slot: no failure message, only the media query that hides it (written by the host). */
function toStored({ detail, ...status }: PageSlotStatus): PageSlotStatus {
  return status.reason === 'hidden-by-media' && detail !== undefined ? { ...status, detail } : status;
}

function storedStatus(value: unknown): PageSlotStatus | null {
  if (!isObject(value)) return null;
  const { location, index, component, remote, state, reason, detail } = value;
  if (typeof location !== 'string' || typeof component !== 'string') return null;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) return null;
  if (remote !== null && typeof remote !== 'string') return null;
  if (typeof state !== 'string' || !STATES.has(state)) return null;
  const status: PageSlotStatus = { location, index, component, remote, state: state as PageSlotStatus['state'] };
  if (typeof reason === 'string' && REASONS.has(reason)) status.reason = reason as PageSlotReason;
  if (status.reason === 'hidden-by-media' && typeof detail === 'string') status.detail = detail;
  return status;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
