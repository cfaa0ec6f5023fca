import { useCallback, useEffect, useRef, useState } from 'react';
import { SESSION_TIME_PATH, type SessionTimePayload } from '../../shared';
import { ApiError, useApiClient, useSession, type SessionEnd } from '../core';
import { keepTabInside, returnFocus } from './dialog-focus';
import { keepAliveIntervalMs, useActivityKeepAlive } from './use-activity-keep-alive';

/** The least time the warning gives: WCAG 2.2.1 asks for 20 s to extend a time limit; 30 s leaves room to read it. */
const MIN_WARNING_LEAD_MS = 30_000;

/**
 * How long before the end the warning shows: two minutes, or a quarter of an idle limit shorter than eight, but 30 s
 * at least (a quarter of a one-minute limit, 15 s, gave staff little time to act), and never more than half the idle
 * limit. Half keeps the warning from someone working: a keep-alive goes at most a quarter of the limit after the last
 * (keepAliveIntervalMs), so a working page always has three quarters of it left. Under a minute (a test's limit) the
 * half wins, below the 30 s: the limit itself leaves no more.
 */
export function warningLeadMs(idleTimeoutMs: number): number {
  const lead = Math.max(MIN_WARNING_LEAD_MS, Math.min(120_000, Math.floor(idleTimeoutMs / 4)));
  return Math.min(lead, Math.floor(idleTimeoutMs / 2));
}

/** While the warning shows, the server is asked again this often: another tab may have kept the session. */
const RECHECK_WHILE_SHOWN_MS = 15_000;

interface Deadline {
  /** When the session ends, on this browser's clock. */
  endsAt: number;
  /** False when the absolute limit comes first: staying signed in cannot move it. */
  canExtend: boolean;
  leadMs: number;
  idleTimeoutMs: number;
}

function deadlineOf(time: SessionTimePayload, now: number): Deadline {
  return {
    endsAt: now + Math.min(time.idleEndsInMs, time.absoluteEndsInMs),
    canExtend: time.idleEndsInMs < time.absoluteEndsInMs,
    leadMs: warningLeadMs(time.idleTimeoutMs),
    idleTimeoutMs: time.idleTimeoutMs,
  };
}

/**
 * Why a 401 to the session's check ended it: the limit the page was counting down to, once its end has passed (a
 * second of slack for the clocks' rounding); nothing otherwise (ended on the server, for a reason only it knows).
 */
function endOfDeadline(deadline: Deadline | null, now: number): SessionEnd | undefined {
  if (deadline === null || now < deadline.endsAt - 1000) return undefined;
  return deadline.canExtend ? { cause: 'idle', idleTimeoutMs: deadline.idleTimeoutMs } : { cause: 'absolute-limit' };
}

/** Until the server has said the idle limit: keep-alives a minute apart at most. */
const UNKNOWN_IDLE_TIMEOUT_MS = 4 * 60_000;

/** Said to screen readers when the warning shows while someone is in a text box (the focus stays there). */
export const SESSION_WARNING_ANNOUNCEMENTS = {
  idle: 'Your session is about to end for inactivity: press Escape, or go on typing, to stay signed in.',
  absolute:
    // Said once, when the warning shows: "soon" holds whatever time is left then (seconds, with a short idle limit).
    'Your session reaches its longest allowed time soon: save your work now. Press Escape to close the warning.',
} as const;

function minutesAndSeconds(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * Warns before the session ends, so nobody loses their session to the idle limit mid-task: "Stay signed in" gives
 * back the whole idle time (`POST /session`). Working in the page counts as use too (useActivityKeepAlive: typing,
 * editing, clicking keep the session, a request a minute at most), so the warning comes only to someone away.
 * The server decides: the page learns the time left from the session's answers (GET /me, sign-in, tenant switch, a
 * keep-alive), then asks it (`GET /session`, which does not count as use) before warning, again while warning, and
 * at the end, when a 401 ends the page's session the usual way (a record's unsaved values are kept for the next
 * sign-in). When the absolute limit comes first, the warning says so and only asks to save. Focus goes to the
 * warning's button and back where it was after it, unless it is in a text box: someone typing keeps it (the next
 * space would press the button and be lost), and the warning is announced instead, with its keyboard way: Escape
 * anywhere in the page stays signed in (or closes the warning past the absolute limit), and so does any keystroke
 * that goes on typing, which reaches the text box as ever.
 */
export function SessionExpiryWarning() {
  const session = useSession();
  const client = useApiClient();
  const signedIn = session.status === 'authenticated';
  const { expire } = session;
  const [deadline, setDeadline] = useState<Deadline | null>(null);
  // The deadline as last set, for a check's 401 to tell whether it came at the limit (a callback cannot wait for a
  // render).
  const knownDeadline = useRef<Deadline | null>(null);
  knownDeadline.current = deadline;
  const [now, setNow] = useState(() => Date.now());
  const [acknowledged, setAcknowledged] = useState<number | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const warning = useRef<HTMLDivElement>(null);
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
        if (error instanceof ApiError && error.status === 401) expire(endOfDeadline(knownDeadline.current, Date.now()));
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
    // Timers sleep in a hidden tab: ask again when it shows. A check that failed offline is made again as soon as the
    // connection is back, before the person types on: a session that ended meanwhile is said at once, not by a
    // keystroke's keep-alive whose switch to the sign-in page takes the keys typed after it.
    const onVisible = () => {
      if (document.visibilityState === 'visible') void ask(false);
    };
    const onOnline = () => void ask(false);
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('online', onOnline);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', onOnline);
    };
  }, [signedIn, time, ask]);

  const showing = deadline !== null && now >= deadline.endsAt - deadline.leadMs && acknowledged !== deadline.endsAt;

  // One keep-alive at a time: a keystroke, Escape and the button may all ask while the first is on its way.
  const extending = useRef<Promise<void> | null>(null);
  const extend = useCallback((): Promise<void> => {
    extending.current ??= ask(true).finally(() => {
      extending.current = null;
    });
    return extending.current;
  }, [ask]);
  useActivityKeepAlive({
    enabled: signedIn && deadline?.canExtend !== false,
    intervalMs: keepAliveIntervalMs(deadline?.idleTimeoutMs ?? UNKNOWN_IDLE_TIMEOUT_MS),
    keepAlive: () => void extend(),
    urgent: showing,
    ignores: (target) => target instanceof Node && (warning.current?.contains(target) ?? false),
  });

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

  const giveFocusBack = useCallback(() => {
    const before = focusBefore.current;
    focusBefore.current = null;
    returnFocus(warning.current, before);
  }, []);
  const stay = useCallback(async () => {
    await extend();
    giveFocusBack();
  }, [extend, giveFocusBack]);
  const endsAt = deadline?.endsAt ?? null;
  const acknowledge = useCallback(() => {
    setAcknowledged(endsAt);
    giveFocusBack();
  }, [endsAt, giveFocusBack]);

  // Whether the warning left the focus where it was (someone typing): then it is announced by the live region.
  const [leftFocus, setLeftFocus] = useState(false);
  // Where the warning shows: at the bottom, unless the text box someone types in is in the lower half of the window,
  // where the warning would cover it (on a phone, or zoomed in, it covers most of that half).
  const [atTop, setAtTop] = useState(false);
  useEffect(() => {
    if (!showing) {
      setLeftFocus(false);
      // Gone while it had the focus (kept from another tab, or by a click elsewhere): back where it was.
      if (document.activeElement === null || document.activeElement === document.body) giveFocusBack();
      focusBefore.current = null;
      return;
    }
    const active = document.activeElement;
    // Moving the focus mid-word would press the button with the next space, and lose that keystroke.
    if (takesTyping(active)) {
      setLeftFocus(true);
      const box = active!.getBoundingClientRect();
      setAtTop(box.top + box.height / 2 > window.innerHeight / 2);
      return;
    }
    setAtTop(false);
    if (active instanceof HTMLElement && active !== document.body) focusBefore.current = active;
    button.current?.focus();
  }, [showing, giveFocusBack]);

  // The keyboard way from anywhere in the page, a key that types nothing. A list that closes on Escape (the record
  // picker) stops the key there, so Escape closes the list first.
  const canExtend = deadline?.canExtend ?? false;
  useEffect(() => {
    if (!showing) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (canExtend) void stay();
      else acknowledge();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [showing, canExtend, stay, acknowledge]);

  // Always there, so that what it is given is announced (a live region added with its text often is not).
  const announcement = (
    <p className="visually-hidden" aria-live="assertive">
      {showing && leftFocus ? SESSION_WARNING_ANNOUNCEMENTS[deadline.canExtend ? 'idle' : 'absolute'] : ''}
    </p>
  );
  if (!showing) return announcement;

  const left = minutesAndSeconds(deadline.endsAt - now);

  return (
    <>
      {announcement}
      <div
        ref={warning}
        className={atTop ? 'session-warning session-warning--top' : 'session-warning'}
        role="alertdialog"
        // Tab goes round inside while it has the focus; keys typed in a text box it left the focus in never get here.
        onKeyDown={keepTabInside}
        aria-labelledby="session-warning-title"
        aria-describedby="session-warning-text session-warning-keys"
      >
        <p className="session-warning__title" id="session-warning-title">
          Your session is about to end
        </p>
        <p className="session-warning__text" id="session-warning-text">
          {deadline.canExtend
            ? `You will be signed out in ${left} for inactivity.`
            : `Your session reaches its longest allowed time in ${left}. Save your work: you will then be asked to sign in again.`}
        </p>
        <p className="session-warning__keys" id="session-warning-keys">
          {deadline.canExtend ? 'Press Esc, or go on working, to stay signed in.' : 'Press Esc to close.'}
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
