/**
 * Why the session a page was using ended, when the page can tell, for the sign-in page to say it rather than a bare
 * "your session has ended": the idle limit or the absolute limit passed (the page knows the session's clock from the
 * server's answers: SessionExpiryWarning), or the person signed out in another tab of this browser (the tabs share
 * one cookie, and tell each other: session-broadcast.ts). Anything else (a password change, an account disabled, a
 * session removed on the server) is one 401 among others, and the page says only that the session ended.
 */
export type SessionEnd =
  | { cause: 'idle'; idleTimeoutMs: number }
  | { cause: 'absolute-limit' }
  | { cause: 'signed-out-elsewhere' };

/**
 * A SessionEnd as another tab sent it (session-broadcast.ts), or null for anything else: a tab of an older or newer
 * host may send another shape, and that must only lose the cause, never break the tab that hears it.
 */
export function sessionEndOf(value: unknown): SessionEnd | null {
  if (typeof value !== 'object' || value === null) return null;
  const { cause, idleTimeoutMs } = value as { cause?: unknown; idleTimeoutMs?: unknown };
  if (cause === 'absolute-limit' || cause === 'signed-out-elsewhere') return { cause };
  if (cause === 'idle' && typeof idleTimeoutMs === 'number' && Number.isFinite(idleTimeoutMs) && idleTimeoutMs > 0) {
    return { cause, idleTimeoutMs };
  }
  return null;
}
