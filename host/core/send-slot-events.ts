import {
  SLOT_EVENTS_MAX_PER_BATCH,
  SLOT_EVENTS_PATH,
  type SlotLoadEvent,
  type SlotLoadOutcome,
  type SlotLoadPhase,
} from '../../shared';
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
  now: () => number = Date.now,
): () => void {
  let queue: SlotLoadEvent[] = [];
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
    const event = slotLoadEventOf(slot, previous);
    if (event === null) return;
    if (now() - minute >= 60_000) {
      minute = now();
      sent = 0;
    }
    if (++sent > MAX_EVENTS_PER_MINUTE) return;
    queue.push(event);
    if (!scheduled) {
      scheduled = true;
      channel.whenIdle(flush);
    }
  });
}

/** The event a transition stands for, or null when it ends no load (or the slot's remote is not known). */
export function slotLoadEventOf(slot: SlotStatusEntry, previous: SlotStatusEntry | null): SlotLoadEvent | null {
  if (slot.state === 'loading' || slot.remote === null) return null;
  if (previous !== null && previous.state !== 'loading') return null;
  const settledAt = slot.settledAt ?? slot.startedAt;
  const failure = slot.failure;
  return {
    location: slot.location,
    component: slot.component,
    remote: slot.remote,
    outcome: outcomeOf(slot),
    phase: failure === null ? null : phaseOf(failure.kind, failure.message),
    kind: failure?.kind ?? null,
    loadMs: Math.max(0, Math.round(settledAt - slot.startedAt)),
    startMs: Math.max(0, Math.round(slot.startedAt)),
  };
}

function outcomeOf(slot: SlotStatusEntry): SlotLoadOutcome {
  if (slot.state === 'failed') return isTimeout(slot.failure) ? 'timed-out' : 'failed';
  return slot.state === 'hidden' ? 'hidden' : 'rendered';
}

/**
 * Where a failure stopped, from its kind and the loader's message (read here, never sent): a quarantined remote's
 * message names the manifest or the entry (reliability-plugin.ts), a module that failed its share scope says so.
 */
export function phaseOf(kind: SlotFailureKind, message: string): SlotLoadPhase {
  if (kind === 'remote-unavailable') return /: entry /.test(message) ? 'entry' : 'manifest';
  if (kind === 'load-error') return /\binit|share scope|shared/i.test(message) ? 'init' : 'factory';
  return 'render';
}
