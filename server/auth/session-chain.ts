import type { RequestHandler } from 'express';
import session, { type Store } from 'express-session';
import type passport from 'passport';
import { ERROR_MESSAGES } from '../../shared';
import { HttpError } from '../http/http-error';
import { SESSION_COOKIE_NAME, sessionCookieOptions } from './session-cookie';
import { enforceSessionTimeouts } from './session-timeouts';

export interface SessionChainOptions {
  store: Store;
  /** The first signs cookies; every one verifies them (rotation). */
  secrets: string[];
  authenticator: passport.Authenticator;
  idleMs: number;
  absoluteMs: number;
  now: () => number;
}

/**
 * What every route that may need the signed-in user runs first: answers marked private, the session loaded
 * (a store failure is a 503, not a 500 or an anonymous answer), both timeouts enforced, then passport's user.
 */
export function createSessionChain(options: SessionChainOptions): RequestHandler[] {
  const sessionMiddleware = session({
    name: SESSION_COOKIE_NAME,
    secret: options.secrets,
    store: options.store,
    resave: false,
    saveUninitialized: false,
    // Every answer pushes the cookie's expiry (and the stored session's) one idle period further.
    rolling: true,
    cookie: sessionCookieOptions(options.idleMs),
  });
  const loadSession: RequestHandler = (req, res, next) => {
    sessionMiddleware(req, res, (error?: unknown) => {
      if (error) {
        req.log.error({ err: error }, 'session store failed');
        next(new HttpError('unavailable', ERROR_MESSAGES.unavailable));
        return;
      }
      next();
    });
  };
  const privateAnswers: RequestHandler = (_req, res, next) => {
    res.setHeader('Cache-Control', 'private, no-store');
    next();
  };
  return [
    privateAnswers,
    loadSession,
    enforceSessionTimeouts({ idleMs: options.idleMs, absoluteMs: options.absoluteMs, now: options.now }),
    options.authenticator.initialize(),
    options.authenticator.session(),
  ];
}
