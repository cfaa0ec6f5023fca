import { useCallback, useEffect, useRef, useState } from 'react';
import { SESSION_TIME_PATH, type SessionTimePayload } from '../../shared';
import { ApiError, useApiClient, useSession } from '../core';

/** How long before the end the warning shows: two minutes, or a quarter of an idle limit shorter than eight. */
export function warningLeadMs(idleTimeoutMs: number): number {
  return Math.min(120_000, Math.floor(idleTimeoutMs / 4));
}

/** While the warning shows, the server is asked again this often: another tab may have kept the session. */
const RECHECK_WHILE_SHOWN_MS = 15_000;

interface Deadline {
  /** When the session ends, on this browser's clock. */
  endsAt: number;
  /** False when the absolute limit comes first: staying signed in cannot move it. */
  canExtend: boolean;
  leadMs: number;
}

function deadlineOf(time: SessionTimePayload, now: number): Deadline {
  return {
    endsAt: now + Math.min(time.idleEndsInMs, time.absoluteEndsInMs),
    canExtend: time.idleEndsInMs < time.absoluteEndsInMs,
    leadMs: warningLeadMs(time.idleTimeoutMs),
  };
}

function minutesAndSeconds(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * Warns before the session ends, so nobody loses their session to the idle limit mid-task: "Stay signed in" gives
 * back the whole idle time (`POST /session`). The server decides: the page learns the time left from the session's
 * answers (GET /me, sign-in, tenant switch), then asks it (`GET /session`, which does not count as use) before
 * warning, again while warning, and at the end, when a 401 ends the page's session the
 * usual way (a record's unsaved values are kept for the next sign-in). When the absolute limit comes first, the
 * warning says so and only asks to save. Focus goes to the warning's button and back where it was after it, unless
 * it is in a text box: someone typing keeps it (the next space would press the button and be lost), and the warning is
 * announced instead.
 */
export function SessionExpiryWarning() {
  const session = useSession();
  const client = useApiClient();
  const signedIn = session.status === 'authenticated';
  const { expire } = session;
  const [deadline, setDeadline] = useState<Deadline | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [acknowledged, setAcknowledged] = useState<number | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const focusBefore = useRef<HTMLElement | null>(null);

  const ask = useCallback(
    async (extend: boolean) => {
      try {
        const time = extend
          ? await client.post<SessionTimePayload>(SESSION_TIME_PATH)
          : await client.get<SessionTimePayload>(SESSION_TIME_PATH);
        const at = Date.now();
        setNow(at);
        setDeadline(deadlineOf(time, at));
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) expire();
        // Otherwise (the network, a 503) the next check asks again; the server still ends the session on time.
      }
    },
    [client, expire],
  );

  const { time } = session;
  useEffect(() => {
    if (!signedIn) {
      setDeadline(null);
      return undefined;
    }
    // The session's answers carry the time left (a signed-in page's data too): no request at load.
    if (time) setDeadline(deadlineOf(time.payload, time.receivedAt));
    else void ask(false);
    // Timers sleep in a hidden tab: ask again when it shows.
    const onVisible = () => {
      if (document.visibilityState === 'visible') void ask(false);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [signedIn, time, ask]);

  const showing = deadline !== null && now >= deadline.endsAt - deadline.leadMs && acknowledged !== deadline.endsAt;

  useEffect(() => {
    if (!deadline) return undefined;
    const untilWarning = deadline.endsAt - deadline.leadMs - Date.now();
    // Before warning, ask once more: requests from this or another tab may have moved the end.
    if (untilWarning > 0) {
      const timer = setTimeout(() => void ask(false), untilWarning);
      return () => clearTimeout(timer);
    }
    let lastAsked = Date.now();
    const tick = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= deadline.endsAt || at - lastAsked >= RECHECK_WHILE_SHOWN_MS) {
        lastAsked = at;
        void ask(false);
      }
    }, 1000);
    return () => clearInterval(tick);
  }, [deadline, ask]);

  // Whether the warning left the focus where it was (someone typing): then it is announced by the live region.
  const [leftFocus, setLeftFocus] = useState(false);
  useEffect(() => {
    if (!showing) {
      setLeftFocus(false);
      return;
    }
    const active = document.activeElement;
    // Moving the focus mid-word would press the button with the next space, and lose that keystroke.
    if (takesTyping(active)) {
      setLeftFocus(true);
      return;
    }
    if (active instanceof HTMLElement && active !== document.body) focusBefore.current = active;
    button.current?.focus();
  }, [showing]);

  // Always there, so that what it is given is announced (a live region added with its text often is not).
  const announcement = (
    <p className="visually-hidden" aria-live="assertive">
      {showing && leftFocus
        ? deadline.canExtend
          ? 'Your session is about to end for inactivity. The warning at the bottom of the window has a button to stay signed in.'
          : 'Your session reaches its longest allowed time in a few minutes: save your work.'
        : ''}
    </p>
  );
  if (!showing) return announcement;

  const giveFocusBack = () => {
    const before = focusBefore.current;
    focusBefore.current = null;
    if (before?.isConnected) before.focus();
  };
  const stay = async () => {
    await ask(true);
    giveFocusBack();
  };
  const acknowledge = () => {
    setAcknowledged(deadline.endsAt);
    giveFocusBack();
  };
  const left = minutesAndSeconds(deadline.endsAt - now);

  return (
    <>
      {announcement}
      <div
        className="session-warning"
        role="alertdialog"
        aria-labelledby="session-warning-title"
        aria-describedby="session-warning-text"
        onKeyDown={(event) => {
          if (event.key === 'Escape') void (deadline.canExtend ? stay() : acknowledge());
        }}
      >
        <p className="session-warning__title" id="session-warning-title">
          Your session is about to end
        </p>
        <p className="session-warning__text" id="session-warning-text">
          {deadline.canExtend
            ? `You will be signed out in ${left} for inactivity.`
            : `Your session reaches its longest allowed time in ${left}. Save your work: you will then be asked to sign in again.`}
        </p>
        {deadline.canExtend ? (
          <button ref={button} type="button" className="button button--primary" onClick={() => void stay()}>
            Stay signed in
          </button>
        ) : (
          <button ref={button} type="button" className="button button--secondary" onClick={acknowledge}>
            OK
          </button>
        )}
      </div>
    </>
  );
}

/** Whether an element takes typed text: a text box, a text area, or something editable. */
function takesTyping(element: Element | null): boolean {
  if (element instanceof HTMLTextAreaElement) return true;
  if (element instanceof HTMLElement && element.isContentEditable) return true;
  return (
    element instanceof HTMLInputElement &&
    !['button', 'checkbox', 'color', 'file', 'image', 'radio', 'range', 'reset', 'submit'].includes(element.type)
  );
}
