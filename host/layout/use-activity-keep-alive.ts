import { useEffect, useRef } from 'react';

/**
 * The least time between two keep-alives: a minute, or a quarter of an idle limit shorter than four minutes, so that
 * someone working keeps the session with a request a minute at most, and a short limit (a test's) is still kept.
 */
export function keepAliveIntervalMs(idleTimeoutMs: number): number {
  return Math.min(60_000, Math.floor(idleTimeoutMs / 4));
}

/** What the user does in the page that counts as using it: typing, editing, pressing, clicking. */
const ACTIVITY_EVENTS = ['keydown', 'input', 'pointerdown'] as const;

export interface ActivityKeepAliveOptions {
  /** Only while signed in, and while a keep-alive can move the end (not past the absolute limit). */
  enabled: boolean;
  intervalMs: number;
  /** Asks the server to count the session as used (`POST /session`). */
  keepAlive(): void;
  /** Activity right now keeps the session at once, whatever the interval (the end is near: the warning shows). */
  urgent: boolean;
  /** Activity that is not counted here (the warning's own button, which keeps the session itself). */
  ignores?(target: EventTarget | null): boolean;
}

/**
 * Makes working in the page count as using the session. The server measures the idle limit from the last request,
 * and typing into a form makes none until it is saved, so someone typing for half an hour lost the session (and the
 * keystrokes after it) mid-sentence. Here each keystroke, edit or click may keep the session, at most once per
 * `intervalMs`, and at once while the end is near. Listened to in the capture phase, so a component that stops an
 * event (a list that closes on Escape) still counts as used.
 */
export function useActivityKeepAlive(options: ActivityKeepAliveOptions): void {
  const latest = useRef(options);
  latest.current = options;
  const { enabled } = options;

  useEffect(() => {
    if (!enabled) return undefined;
    // The page's own requests just counted as use: the first keep-alive waits an interval.
    let lastKept = Date.now();
    const onActivity = (event: Event) => {
      const { intervalMs, keepAlive, urgent, ignores } = latest.current;
      if (ignores?.(event.target)) return;
      const now = Date.now();
      if (!urgent && now - lastKept < intervalMs) return;
      lastKept = now;
      keepAlive();
    };
    for (const type of ACTIVITY_EVENTS) document.addEventListener(type, onActivity, true);
    return () => {
      for (const type of ACTIVITY_EVENTS) document.removeEventListener(type, onActivity, true);
    };
  }, [enabled]);
}
