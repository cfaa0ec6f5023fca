import type { CookieOptions } from 'express';

/** Name of the session cookie (not express-session's default `connect.sid`, which names the software). */
export const SESSION_COOKIE_NAME = 'slots.sid';

/**
 * Options of the session cookie. `secure: 'auto'` marks it Secure whenever the request came over TLS (with
 * `trust proxy`, also when a trusted proxy says so); Lax keeps it off cross-site subrequests and form posts.
 */
export function sessionCookieOptions(idleMs: number) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: 'auto' as const,
    path: '/',
    maxAge: idleMs,
  };
}

/** Options that make `res.clearCookie` match the cookie the session set. */
export const CLEAR_SESSION_COOKIE: CookieOptions = { httpOnly: true, sameSite: 'lax', path: '/' };
