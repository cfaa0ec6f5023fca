import type { Request, RequestHandler, Router } from 'express';
import { BACKGROUND_READ_HEADER, SESSION_TIME_PATH, type SessionTimePayload } from '../../shared';
import { jsonRoute } from '../http/json-route';
import { requireSession } from './require-session';

/** The two session limits and the clock they are measured with. */
export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
  now: () => number;
}

/**
 * How long the request's session has left. Also carried by every `MePayload` (GET /me, sign-in, tenant switch, a
 * signed-in page's session data), so a page knows it without asking.
 */
export function sessionTimeOf(req: Request, limits: SessionLimits): SessionTimePayload {
  const now = limits.now();
  const { createdAt = now, lastSeenAt = now } = req.session;
  return {
    idleEndsInMs: Math.max(0, lastSeenAt + limits.idleMs - now),
    absoluteEndsInMs: Math.max(0, createdAt + limits.absoluteMs - now),
    idleTimeoutMs: limits.idleMs,
  };
}

/**
 * A request that is no use of the session, which the session chain must not count as such (enforceSessionTimeouts):
 * `GET /session` only measures, and a read the page makes by itself (BACKGROUND_READ_HEADER: the releases page and
 * the slot inspector refresh their figures every 20 s) would otherwise keep an unattended page signed in for ever.
 * Only reads: a change is always someone's use.
 */
export function isSessionPeek(req: Request): boolean {
  if (req.method !== 'GET') return false;
  return req.headers[BACKGROUND_READ_HEADER_LOWER] === '1' || req.originalUrl.split('?')[0] === SESSION_TIME_PATH;
}

const BACKGROUND_READ_HEADER_LOWER = BACKGROUND_READ_HEADER.toLowerCase();

/**
 * How long the signed-in session has left (`GET /session`), and "stay signed in" (`POST /session`), so the shell can
 * warn before the idle limit ends a session. A page is never trusted with the limits: it asks, and the session
 * chain ended an expired session before either route runs (a 401 then).
 */
export function addSessionTimeRoutes(router: Router, options: SessionLimits): void {
  const read: RequestHandler = (req, res) => {
    res.json(sessionTimeOf(req, options));
  };
  const extend: RequestHandler = (req, res) => {
    // Written whatever the step: staying signed in must give back the whole idle time, and the cookie with it.
    req.session.lastSeenAt = options.now();
    res.json(sessionTimeOf(req, options));
  };
  jsonRoute(router, SESSION_TIME_PATH, { GET: [requireSession, read], POST: [requireSession, extend] });
}
