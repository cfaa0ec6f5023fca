import type { ApiError } from '../../core';
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
