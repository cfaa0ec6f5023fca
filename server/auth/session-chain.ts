import type { Request, RequestHandler } from 'express';
import session, { type Store } from 'express-session';
import type passport from 'passport';
import { ERROR_MESSAGES } from '../../shared';
import { HttpError } from '../http/http-error';
import { inSeries } from '../http/in-series';
import { isDatabaseUnavailable } from '../storage/database-unavailable';
import { isSessionStoreUnavailable } from '../storage/session-store-unavailable';
import { SESSION_COOKIE_NAME, sessionCookieOptions, signOutNotEnded } from './session-cookie';
import { SessionStoreWithoutTouch } from './session-store-without-touch';
import { isSessionPeek } from './session-time';
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

export interface SessionChainMode {
  /**
   * `api` (default): every answer is marked `private, no-store`, and a store that fails is a 503. `page`: for the
   * host's pages, which decide their caching themselves (per user only when signed in) and are still served when the
   * store fails, as to an anonymous visitor: the page then asks the API, which reports the failure.
   */
  for?: 'api' | 'page';
}

/**
 * What every route that may need the signed-in user runs first: answers marked private, the session loaded
 * (a store failure is a 503, not a 500 or an anonymous answer), both timeouts enforced, then passport's user.
 */
export function createSessionChain(options: SessionChainOptions, mode: SessionChainMode = {}): RequestHandler {
  const forPage = mode.for === 'page';
  const sessionMiddleware = session({
    name: SESSION_COOKIE_NAME,
    secret: options.secrets,
    store: new SessionStoreWithoutTouch(options.store),
    resave: false,
    saveUninitialized: false,
    // Not rolling: the cookie goes out again only when the session changed, and enforceSessionTimeouts changes it
    // (lastSeenAt) whenever the idle deadline moves by a step, so the browser's copy expires with the server's idle
    // deadline without a signed Set-Cookie on every answer. The stored session's expiry moves with that same save
    // (SessionStoreWithoutTouch leaves out the per-request touch), so an unchanged request writes nothing.
    rolling: false,
    cookie: sessionCookieOptions(options.idleMs),
  });
  const loadSession: RequestHandler = (req, res, next) => {
    sessionMiddleware(req, res, (error?: unknown) => {
      if (error) {
        // The database not answering (sessions in PostgreSQL): the error handler answers it 503 and says so in one
        // line, the outage itself being told once (postgres-outage-log.ts); a stack a request would say nothing more.
        if (isDatabaseUnavailable(error)) {
          next(error);
          return;
        }
        // Redis lost or not answering: known, and logged once each way by the store (redis-session-storage.ts); a
        // stack per request said nothing more. Anything else the store meets is logged whole.
        if (isSessionStoreUnavailable(error)) req.log.warn({ reason: error.message }, 'session store unavailable');
        else req.log.error({ err: error }, 'session store failed');
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
  // One middleware: it runs on every signed-in request, and one router layer costs less than four.
  const chain = inSeries([
    ...(forPage ? [] : [privateAnswers]),
    loadSession,
    enforceSessionTimeouts({
      idleMs: options.idleMs,
      absoluteMs: options.absoluteMs,
      now: options.now,
      isPeek: isSessionPeek,
    }),
    // No passport.initialize(): it only adds compatibility fields for strategies of passport 0.4 and older; the
    // session and local strategies set up req.logIn and the session manager themselves.
    options.authenticator.session(),
  ]);
  if (!forPage) {
    // A sign-out that failed here (the store, or the database loading its user) still signs the browser out.
    return (req, res, next) => {
      if (!isSignOut(req)) return chain(req, res, next);
      chain(req, res, (error?: unknown) => {
        if (error === undefined || error === null || error === 'route' || error === 'router') return next(error);
        req.log.error({ err: error }, 'sign-out could not load the session');
        next(signOutNotEnded(req, res, options.idleMs));
      });
    };
  }
  // A page is served whatever happened (logged above when the store failed): without a user, as to anyone, but not
  // said to have none (sessionUnknown).
  return (req, res, next) => {
    chain(req, res, (error?: unknown) => {
      if (error !== undefined && error !== null && error !== 'route' && error !== 'router') {
        req.user = undefined;
        unknownSessions.add(req);
      }
      next();
    });
  };
}

/** Page requests whose session could not be loaded (see sessionUnknown). */
const unknownSessions = new WeakSet<Request>();

/**
 * Whether a page request's session could not be loaded (its store or the database failing): it has no `req.user`,
 * though it may well have a signed-in session, so its page must not say that nobody is signed in.
 */
export function sessionUnknown(req: Request): boolean {
  return unknownSessions.has(req);
}

/** `POST /logout`: its answer clears the cookie whatever the store did. */
function isSignOut(req: Request): boolean {
  return req.method === 'POST' && req.originalUrl.split('?')[0] === '/logout';
}
