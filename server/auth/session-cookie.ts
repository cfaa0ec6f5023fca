import type { CookieOptions, Request, Response } from 'express';
import { signOutNotEndedMessage } from '../../shared';
import { HttpError } from '../http/http-error';

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

/** Sent with a sign-out: what the browser keeps for the site goes too (other cookies, storage a remote may have used). */
export const CLEAR_SITE_DATA = '"cookies", "storage"';

/**
 * Makes the browser forget the session (its cookie, and the site's data): every sign-out does, the one whose stored
 * session could not be ended too (the store not answering), so the next person at that browser is not signed in.
 */
export function forgetSessionInBrowser(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE_NAME, { ...CLEAR_SESSION_COOKIE, secure: req.secure });
  res.setHeader('Clear-Site-Data', CLEAR_SITE_DATA);
}

/**
 * The answer to a sign-out whose stored session could not be ended (the session store or the database not answering,
 * whether loading the session, its user, or destroying it): the browser forgets it all the same, so the next person
 * at it is not signed in as this one once they answer again, and the 503 says when the stored session ends by itself.
 */
export function signOutNotEnded(req: Request, res: Response, idleMs: number): HttpError {
  forgetSessionInBrowser(req, res);
  return new HttpError('unavailable', signOutNotEndedMessage(Math.max(1, Math.round(idleMs / 60_000))));
}
