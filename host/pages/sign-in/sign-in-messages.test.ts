import { ApiError } from '../../core';
import { signOutNotEndedMessage } from '../../../shared';
import { sessionEndedMessage, signInErrorMessage, signOutFailureMessage, waitInWords } from './sign-in-messages';

describe('sign-in messages', () => {
  it('says a wait the way a person would, rounded up', () => {
    expect(waitInWords(0.2)).toBe('1 second');
    expect(waitInWords(45)).toBe('45 seconds');
    expect(waitInWords(60)).toBe('1 minute');
    expect(waitInWords(61)).toBe('2 minutes');
    expect(waitInWords(900)).toBe('15 minutes');
    expect(waitInWords(3600)).toBe('1 hour');
    expect(waitInWords(5400)).toBe('2 hours');
  });

  it('says how long a lock-out lasts when the server says it, and the server’s message otherwise', () => {
    const locked = new ApiError(429, 'too_many_requests', 'Too many sign-in attempts. Try again later.', {}, 840);
    expect(signInErrorMessage(locked)).toBe('Too many sign-in attempts. Try again in 14 minutes.');
    const lockedWithoutWait = new ApiError(429, 'too_many_requests', 'Too many sign-in attempts. Try again later.');
    expect(signInErrorMessage(lockedWithoutWait)).toBe('Too many sign-in attempts. Try again later.');
    expect(signInErrorMessage(new ApiError(401, 'unauthenticated', 'Invalid username or password.'))).toBe(
      'Invalid username or password.',
    );
    expect(signInErrorMessage(null)).toBe('Could not sign in. Try again.');
  });

  it("says after a failed sign-out whether this browser forgot the session (the server's words) or it may live on", () => {
    const notEnded = new ApiError(503, 'unavailable', signOutNotEndedMessage(30));
    expect(signOutFailureMessage(notEnded)).toBe(
      'This browser is signed out, but the server could not end your session now (where sessions are kept is not ' +
        'answering). It ends on its own after 30 minutes unused.',
    );
    expect(signOutFailureMessage(new ApiError(0, 'network', 'Could not reach the server.'))).toBe(
      'The server could not be reached, so your session may not have ended: once the connection is back, reload ' +
        'this page and sign out again.',
    );
    // A proxy's 502 page: the server never saw the sign-out.
    expect(signOutFailureMessage(new ApiError(502, 'internal', 'The server could not answer (status 502).'))).toBe(
      'The server could not end your session (status 502): reload this page and sign out again.',
    );
  });
});

describe('sessionEndedMessage', () => {
  it('says why the session ended when the page could tell, and that the work waits', () => {
    expect(sessionEndedMessage({ cause: 'idle', idleTimeoutMs: 30 * 60_000 })).toBe(
      'You were signed out after 30 minutes without activity. Sign in again to continue where you left off.',
    );
    expect(sessionEndedMessage({ cause: 'idle', idleTimeoutMs: 90_000 })).toContain('after 2 minutes without activity');
    expect(sessionEndedMessage({ cause: 'absolute-limit' })).toBe(
      'Your session reached the longest time a session may last, however active. Sign in again to continue where you left off.',
    );
    expect(sessionEndedMessage({ cause: 'signed-out-elsewhere' })).toBe(
      'You signed out in another tab or window of this browser. Sign in again to continue where you left off.',
    );
    expect(sessionEndedMessage(null)).toBe('Your session has ended. Sign in again to continue where you left off.');
  });
});
