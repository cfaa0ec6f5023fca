import type { ApiError, SessionEnd } from '../../core';
import { countOf } from '../common/count-in-words';

/** A wait in words, rounded up to what a person would say: "45 seconds", "1 minute", "15 minutes", "2 hours". */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return countOf(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 60 * 60) return countOf(Math.ceil(seconds / 60), 'minute');
  return countOf(Math.ceil(seconds / (60 * 60)), 'hour');
}

/**
 * What the sign-in form says when an attempt fails: the server's message, except that a lock-out says how long to
 * wait (the server's `Retry-After`), and a failure without an answer says to try again.
 */
export function signInErrorMessage(error: ApiError | null): string {
  if (error === null) return 'Could not sign in. Try again.';
  if (error.status === 429 && error.retryAfterSeconds !== null) {
    return `Too many sign-in attempts. Try again in ${waitInWords(error.retryAfterSeconds)}.`;
  }
  return error.message;
}

/**
 * What the sign-in page says when it is shown because the session ended under a page: why, when the page could tell
 * (Session.ended), and that the work is kept (a record's unsaved values come back after signing in as the same user).
 */
export function sessionEndedMessage(ended: SessionEnd | null): string {
  const again = 'Sign in again to continue where you left off.';
  switch (ended?.cause) {
    case 'idle':
      return `You were signed out after ${waitInWords(ended.idleTimeoutMs / 1000)} without activity. ${again}`;
    case 'absolute-limit':
      return `Your session reached the longest time a session may last, however active. ${again}`;
    case 'signed-out-elsewhere':
      return `You signed out in another tab or window of this browser. ${again}`;
    default:
      return `Your session has ended. ${again}`;
  }
}

/**
 * What the sign-in page says after a sign-out whose `POST /logout` failed: the server's own words when it answered
 * (its session store not answering: this browser forgot the session, which then ends on its own), else that the
 * session may live on and how to end it. On a shared computer the next person would otherwise find it signed in.
 */
export function signOutFailureMessage(error: ApiError): string {
  if (error.status === 503 && error.code === 'unavailable') return error.message;
  if (error.code === 'network') {
    return (
      'The server could not be reached, so your session may not have ended: once the connection is back, reload ' +
      'this page and sign out again.'
    );
  }
  return `The server could not end your session (status ${error.status}): reload this page and sign out again.`;
}
