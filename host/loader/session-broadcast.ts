/** The BroadcastChannel the tabs of an origin tell each other on, and the localStorage key of its fallback. */
export const SESSION_BROADCAST_NAME = 'slots:session-changed';

/** What a tab holds to tell the others, and to stop hearing them. */
export interface SessionBroadcast {
  /** Tells the origin's other tabs that this tab changed the session they share (one cookie for all). */
  announce(): void;
  close(): void;
}

/**
 * The line between the tabs of the origin about their one session: a tab that signed in or out, or switched tenant,
 * announces it, and every other tab asks the server who is signed in now (`onOtherTab`), rather than showing another
 * tenant's records under the old one's name until a save is refused. The message says nothing of who: each tab asks
 * the server. A BroadcastChannel where there is one, else a `storage` event of localStorage (which the browser gives
 * to the other tabs only); without either (storage refused), tabs learn of it at their next request, as before.
 */
export function openSessionBroadcast(target: Window, onOtherTab: () => void): SessionBroadcast {
  const Channel = (target as Window & { BroadcastChannel?: typeof BroadcastChannel }).BroadcastChannel;
  if (typeof Channel === 'function') {
    const channel = new Channel(SESSION_BROADCAST_NAME);
    channel.onmessage = () => onOtherTab();
    return {
      announce: () => channel.postMessage(Date.now()),
      close: () => channel.close(),
    };
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION_BROADCAST_NAME && event.newValue !== null) onOtherTab();
  };
  target.addEventListener('storage', onStorage);
  return {
    announce: () => {
      try {
        // A value never written before: writing the same one again would not be an event.
        target.localStorage.setItem(SESSION_BROADCAST_NAME, `${Date.now()}:${Math.random()}`);
      } catch {
        // Storage refused (a privacy mode): the other tabs learn of it at their next request.
      }
    },
    close: () => target.removeEventListener('storage', onStorage),
  };
}
