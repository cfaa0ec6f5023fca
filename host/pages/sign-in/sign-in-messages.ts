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
