import { ExternalStore } from '../loader/external-store';

/** Why a slot did not render. */
export type SlotFailureKind =
  | 'unknown-component'
  | 'not-a-form-component'
  | 'remote-unavailable'
  | 'load-error'
  | 'render-error'
  /** Development only: the slot's props do not match its component's schema (checked before rendering). */
  | 'props-invalid';

/**
 * Whether a failure was its remote not answering in time: the loader says so in its message (reliability-plugin.ts:
 * `timed out after 3500 ms`, `... timed out.`), the only place it is told.
 */
export function isTimeout(failure: { message: string } | null): boolean {
  return failure !== null && /timed? ?out/i.test(failure.message);
}

/** Where a slot stands in the page: what is written into the status with each transition. */
export interface SlotPlace {
  /** The page's path when the slot first joined it. */
  page: string;
  location: string;
  /** Its position at the location (or among its parent slot's content). */
  index: number;
  component: string;
  /** The remote that provides the component; null when not from a remote (or not known yet). */
  remote: string | null;
}

export type SlotState = 'loading' | 'rendered' | 'failed' | 'hidden';

/** One slot's state on the page, with the times of its transitions (milliseconds of `performance.now()`). */
export interface SlotStatusEntry extends SlotPlace {
  state: SlotState;
  /** Set when `failed`: what failed and the message a placeholder shows (it may quote props). */
  failure: { kind: SlotFailureKind; message: string } | null;
  /** Set when `hidden`: the media query that does not match. */
  media: string | null;
  /** When it started loading (first rendered, or retried after a failure). */
  startedAt: number;
  /** When it left `loading` (rendered, failed or hidden); null while loading. */
  settledAt: number | null;
}

/** A change of one slot's state, as views receive it. `previous` is null for a slot seen the first time. */
export interface SlotTransition {
  slot: SlotStatusEntry;
  previous: SlotStatusEntry | null;
}

/** Stands for one rendered slot (one mounted IsolatedSlot) in the status: made when it first renders. */
export interface SlotHandle {
  readonly startedAt: number;
}

/** Which slot is rendering, and the status it writes into; given to its boundary, mark and placeholder. */
export interface SlotFrame {
  status: SlotStatus;
  handle: SlotHandle;
  place: SlotPlace;
}

const now = (): number => (typeof performance === 'undefined' ? Date.now() : performance.now());

/**
 * The one record each slot writes its state into: loading, rendered, failed (kind and message) or hidden by its
 * media query. Written by what observes each transition (the slot's wrapper when it joins or leaves the page, the
 * Suspense marker when the component shows, the error boundary when it catches, the hidden location); read by views
 * (the failed-slots notice, the inspector's page record, the console log, the development placeholder, the
 * location's fallback), each subscribed on its own. The snapshot lists the slots on the page now; views that need
 * every change (a log, a record, timing) use {@link SlotStatus.onTransition}: a transition out of `loading` carries
 * the outcome, the failure's kind (which says the phase that failed) and both times, enough for one event per load.
 */
export class SlotStatus extends ExternalStore<readonly SlotStatusEntry[]> {
  private readonly entries = new WeakMap<SlotHandle, SlotStatusEntry>();
  /** The slots on the page now, in the order they joined it. */
  private readonly onPage = new Set<SlotHandle>();
  private readonly transitionListeners = new Set<(transition: SlotTransition) => void>();
  /** The last hidden entry of each place a hidden location stood for (no handle: nothing renders there). */
  private readonly hiddenPlaces = new Map<string, SlotStatusEntry>();

  constructor(private readonly clock: () => number = now) {
    super(Object.freeze([]));
  }

  /** A handle for a slot that starts rendering now (no write: rendering may be thrown away). */
  handle(): SlotHandle {
    return Object.freeze({ startedAt: this.clock() });
  }

  /** The slot's current entry; undefined before its first write. */
  entryOf(handle: SlotHandle): SlotStatusEntry | undefined {
    return this.entries.get(handle);
  }

  /**
   * The slot joins the page at `place` (loading, unless a state was written already); returns what takes it off the
   * page again. Its entry is kept, so a slot that leaves and comes back (StrictMode) keeps its state.
   */
  enter(handle: SlotHandle, place: SlotPlace): () => void {
    const entry = this.entries.get(handle);
    if (entry === undefined) this.write(handle, place, 'loading');
    else if (entry.remote !== place.remote) this.entries.set(handle, Object.freeze({ ...entry, remote: place.remote }));
    this.onPage.add(handle);
    this.publishPage();
    return () => {
      this.onPage.delete(handle);
      this.publishPage();
    };
  }

  /** Loading again (after a retry, or a new component under its name). */
  loading(handle: SlotHandle, place: SlotPlace): void {
    this.write(handle, place, 'loading');
  }

  /** Its component is on screen. */
  rendered(handle: SlotHandle, place: SlotPlace): void {
    this.write(handle, place, 'rendered');
  }

  failed(handle: SlotHandle, place: SlotPlace, kind: SlotFailureKind, message: string): void {
    this.write(handle, place, 'failed', { kind, message });
  }

  /** The slots of a location a page does not render now, because `media` does not match. */
  hidden(place: SlotPlace, media: string): void {
    const previous = this.hiddenPlaces.get(hiddenKey(place)) ?? null;
    if (previous?.media === media) return;
    const at = this.clock();
    const slot: SlotStatusEntry = Object.freeze({
      ...place,
      state: 'hidden',
      failure: null,
      media,
      startedAt: at,
      settledAt: at,
    });
    this.hiddenPlaces.set(hiddenKey(place), slot);
    this.tell({ slot, previous });
  }

  /** Calls `listener` with every transition of every slot; returns the unsubscribe function. */
  onTransition(listener: (transition: SlotTransition) => void): () => void {
    this.transitionListeners.add(listener);
    return () => {
      this.transitionListeners.delete(listener);
    };
  }

  private write(
    handle: SlotHandle,
    place: SlotPlace,
    state: 'loading' | 'rendered' | 'failed',
    failure: SlotStatusEntry['failure'] = null,
  ): void {
    const previous = this.entries.get(handle) ?? null;
    if (
      previous !== null &&
      previous.state === state &&
      previous.failure?.kind === failure?.kind &&
      previous.failure?.message === failure?.message
    ) {
      return;
    }
    const at = this.clock();
    // A slot keeps the page it joined; a retry starts its clock again.
    const startedAt = previous === null ? handle.startedAt : state === 'loading' ? at : previous.startedAt;
    const slot: SlotStatusEntry = Object.freeze({
      page: previous?.page ?? place.page,
      location: place.location,
      index: place.index,
      component: place.component,
      remote: place.remote,
      state,
      failure: failure === null ? null : Object.freeze({ ...failure }),
      media: null,
      startedAt,
      settledAt: state === 'loading' ? null : at,
    });
    this.entries.set(handle, slot);
    this.tell({ slot, previous });
    if (this.onPage.has(handle)) this.publishPage();
  }

  private tell(transition: SlotTransition): void {
    for (const listener of [...this.transitionListeners]) listener(transition);
  }

  private publishPage(): void {
    const slots: SlotStatusEntry[] = [];
    for (const handle of this.onPage) {
      const entry = this.entries.get(handle);
      if (entry !== undefined) slots.push(entry);
    }
    const current = this.snapshot();
    if (slots.length === current.length && slots.every((slot, index) => slot === current[index])) return;
    this.publish(Object.freeze(slots));
  }
}

function hiddenKey(place: SlotPlace): string {
  return `${place.page}\u0000${place.location}\u0000${place.index}\u0000${place.component}`;
}
