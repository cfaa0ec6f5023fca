import { ApiError } from '../../core';
import { signInErrorMessage, waitInWords } from './sign-in-messages';

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
});
