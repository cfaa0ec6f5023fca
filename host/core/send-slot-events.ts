import {
  SLOT_EVENTS_MAX_PER_BATCH,
  SLOT_EVENTS_PATH,
  type SlotLoadEvent,
  type SlotLoadOutcome,
  type SlotLoadPhase,
} from '../../shared';
import { remoteReleaseTags } from './remote-release-tags';
import { isTimeout, type SlotFailureKind, type SlotStatus, type SlotStatusEntry } from './slot-status';

/**
 * The most events a page sends per minute (half the server's per-session limit): a page that keeps re-rendering
 * failing slots stays cheap, and a page open for hours (staff navigate without reloading) goes on reporting.
 */
export const MAX_EVENTS_PER_MINUTE = 300;

/** What the sender needs of the browser (a test gives its own). */
export interface SlotEventsChannel {
  /** `navigator.sendBeacon` of a JSON body: queued by the browser, sent after the page's work, even as it unloads. */
  sendBeacon(url: string, json: string): boolean;
  /** Runs `work` when the page is idle (requestIdleCallback), never in the way of rendering. */
  whenIdle(work: () => void): void;
  /** Calls `listener` when the page is hidden or left (pagehide, visibilitychange to hidden). */
  onLeave(listener: () => void): void;
}

/** The browser's channel; null where there is no sendBeacon (tests, old browsers): nothing is sent. */
export function browserChannel(): SlotEventsChannel | null {
  if (typeof window === 'undefined' || typeof navigator.sendBeacon !== 'function') return null;
  return {
    sendBeacon: (url, json) => navigator.sendBeacon(url, new Blob([json], { type: 'application/json' })),
    whenIdle: (work) =>
      typeof window.requestIdleCallback === 'function'
        ? window.requestIdleCallback(work, { timeout: 10_000 })
        : window.setTimeout(work, 2000),
    onLeave: (listener) => {
      window.addEventListener('pagehide', listener);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden') listener();
      });
    },
  };
}

/**
 * A view of the slot status: one event per slot load (a transition out of `loading`, or a slot hidden by its media
 * query) with its place, outcome, failed phase and times, sent in batches with `sendBeacon` when the page is idle
 * and when it is hidden or left, at most MAX_EVENTS_PER_MINUTE. Never an error message or a prop (a message may quote props). Returns what stops it.
 */
export function sendSlotEvents(
  status: SlotStatus,
  channel: SlotEventsChannel,
  releaseTags: ReadonlyMap<string, string> = remoteReleaseTags,
  now: () => number = Date.now,
): () => void {
  let queue: SlotLoadEvent[] = [];
  /** The rendered events still queued, by the entry that made them: a failure after the render takes their place. */
  const queuedRenders = new WeakMap<SlotStatusEntry, SlotLoadEvent>();
  let sent = 0;
  let minute = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    while (queue.length > 0) {
      const events = queue.slice(0, SLOT_EVENTS_MAX_PER_BATCH);
      queue = queue.slice(events.length);
      channel.sendBeacon(SLOT_EVENTS_PATH, JSON.stringify({ events }));
    }
  };
  channel.onLeave(flush);
  return status.onTransition(({ slot, previous }) => {
    const load = slotLoadEventOf(slot, previous);
    if (load === null) return;
    const releaseTag = releaseTags.get(load.remote);
    const event = releaseTag === undefined ? load : { ...load, releaseTag };
    const unsent = event.afterRender && previous !== null ? queue.indexOf(queuedRenders.get(previous)!) : -1;
    if (unsent >= 0) {
      // Its render is not sent yet: the load is one failure (timed to its render), not a render then a failure.
      const { afterRender: _replaced, ...failure } = event;
      queue[unsent] = failure;
      return;
    }
    if (now() - minute >= 60_000) {
      minute = now();
      sent = 0;
    }
    if (++sent > MAX_EVENTS_PER_MINUTE) return;
    queue.push(event);
    if (event.outcome === 'rendered') queuedRenders.set(slot, event);
    if (!scheduled) {
      scheduled = true;
      channel.whenIdle(flush);
    }
  });
}

/**
 * The event a transition stands for, or null when it ends no load (or the slot's remote is not known). A slot that
 * fails after it rendered (a throw in a later render or an effect: what visitors see is the failure) is a failure of
 * its render marked `afterRender`, which the server counts in place of the render it counted before.
 */
export function slotLoadEventOf(slot: SlotStatusEntry, previous: SlotStatusEntry | null): SlotLoadEvent | null {
  const { remote } = slot;
  if (slot.state === 'loading' || remote === null) return null;
  if (previous?.state === 'rendered' && slot.state === 'failed') {
    return { ...loadEventOf(slot, remote, previous), outcome: 'failed', phase: 'render', afterRender: true };
  }
  if (previous !== null && previous.state !== 'loading') return null;
  return loadEventOf(slot, remote, slot);
}

/** The event of a slot's load, timed by `timed` (the entry that ended the load). */
function loadEventOf(slot: SlotStatusEntry, remote: string, timed: SlotStatusEntry): SlotLoadEvent {
  const settledAt = timed.settledAt ?? timed.startedAt;
  const failure = slot.failure;
  return {
    location: slot.location,
    component: slot.component,
    remote,
    outcome: outcomeOf(slot),
    phase: failure === null ? null : phaseOf(failure.kind, failure.message),
    kind: failure?.kind ?? null,
    loadMs: Math.max(0, Math.round(settledAt - timed.startedAt)),
    startMs: Math.max(0, Math.round(timed.startedAt)),
  };
}

function outcomeOf(slot: SlotStatusEntry): SlotLoadOutcome {
  if (slot.state === 'failed') return isTimeout(slot.failure) ? 'timed-out' : 'failed';
  return slot.state === 'hidden' ? 'hidden' : 'rendered';
}

/** A file that did not arrive over the network (the browsers' and webpack's own words). */
const NETWORK_FAILED =
  /Failed to fetch|NetworkError|Load failed|net::ERR_|ChunkLoadError|Loading (CSS )?chunk \S+ failed/i;
/** A request that did not complete in time, or over the network. */
const NOT_ARRIVED = new RegExp(`timed? ?out|TimeoutError|${NETWORK_FAILED.source}`, 'i');
/** The federation runtime's failures to fetch a remote's files (manifest, entry script): its origin, not its code. */
const FILES_NOT_LOADED = /#RUNTIME-00[138]\b|Failed to get manifest|Failed to load script|ScriptExternalLoadError/i;

/**
 * Where a failure stopped, from its kind and the loader's message (read here, never sent): a quarantined remote's
 * message names the manifest or the entry (reliability-plugin.ts), a module that failed its share scope says so.
 * Files that did not arrive are never the code's failure, whichever step asked for them: a timeout or a network
 * failure of a manifest, entry or chunk (`Failed to get manifest. #RUNTIME-003 TimeoutError`, a `ChunkLoadError`)
 * is `load`, and a manifest or entry the runtime could not get otherwise (a 404) is `manifest` or `entry`; only
 * then `init` or `factory`.
 */
export function phaseOf(kind: SlotFailureKind, message: string): SlotLoadPhase {
  if (kind === 'remote-unavailable') return /: entry /.test(message) ? 'entry' : 'manifest';
  if (kind === 'load-error') {
    if (NOT_ARRIVED.test(message)) return 'load';
    if (FILES_NOT_LOADED.test(message)) return /RUNTIME-003|manifest/i.test(message) ? 'manifest' : 'entry';
    return /\binit|share scope|shared/i.test(message) ? 'init' : 'factory';
  }
  // A chunk a component imports while it renders. (Not a timeout: a slot still loading after 20 s is given up as a
  // render that never settled, which is how a component suspending for ever is counted.)
  return NETWORK_FAILED.test(message) ? 'load' : 'render';
}
