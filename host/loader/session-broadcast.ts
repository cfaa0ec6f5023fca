import { sessionEndOf, type SessionEnd } from './session-end';

/** The BroadcastChannel the tabs of an origin tell each other on, and the localStorage key of its fallback. */
export const SESSION_BROADCAST_NAME = 'slots:session-changed';

/** What a tab holds to tell the others, and to stop hearing them. */
export interface SessionBroadcast {
  /**
   * Tells the origin's other tabs that this tab changed the session they share (one cookie for all), and, when it
   * ended, why as the others should say it (signed out here is "signed out in another tab" there).
   */
  announce(ended?: SessionEnd | null): void;
  close(): void;
}

/**
 * The line between the tabs of the origin about their one session: a tab that signed in or out, or switched tenant,
 * announces it, and every other tab asks the server who is signed in now (`onOtherTab`), rather than showing another
 * tenant's records under the old one's name until a save is refused. The message says nothing of who: each tab asks
 * the server; it says only why the session ended, when it did (`onOtherTab`'s argument, null when not told). A
 * BroadcastChannel where there is one, else a `storage` event of localStorage (which the browser gives to the other
 * tabs only); without either (storage refused), tabs learn of it at their next request, as before.
 */
export function openSessionBroadcast(target: Window, onOtherTab: (ended: SessionEnd | null) => void): SessionBroadcast {
  const Channel = (target as Window & { BroadcastChannel?: typeof BroadcastChannel }).BroadcastChannel;
  if (typeof Channel === 'function') {
    const channel = new Channel(SESSION_BROADCAST_NAME);
    channel.onmessage = (event: MessageEvent) => onOtherTab(endedIn(event.data));
    return {
      announce: (ended = null) => channel.postMessage(message(ended)),
      close: () => channel.close(),
    };
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION_BROADCAST_NAME && event.newValue !== null) onOtherTab(endedIn(parsed(event.newValue)));
  };
  target.addEventListener('storage', onStorage);
  return {
    announce: (ended = null) => {
      try {
        // A value never written before (`at`, `nonce`): writing the same one again would not be an event.
        target.localStorage.setItem(SESSION_BROADCAST_NAME, JSON.stringify(message(ended)));
      } catch {
        // Storage refused (a privacy mode): the other tabs learn of it at their next request.
      }
    },
    close: () => target.removeEventListener('storage', onStorage),
  };
}

interface Message {
  at: number;
  nonce: number;
  ended: SessionEnd | null;
}

function message(ended: SessionEnd | null): Message {
  return { at: Date.now(), nonce: Math.random(), ended };
}

/** Why the session ended, as another tab said it; null when it did not say (a tab of an older host sent a number). */
function endedIn(data: unknown): SessionEnd | null {
  return typeof data === 'object' && data !== null ? sessionEndOf((data as { ended?: unknown }).ended) : null;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
