import type { Request, RequestHandler } from 'express';

export interface SessionTimeoutOptions {
  /** A session unused this long is over. */
  idleMs: number;
  /** A session this old is over, however busy. */
  absoluteMs: number;
  now: () => number;
  /** True for a request that only asks how long the session has left: it must not extend what it measures. */
  isPeek?: (req: Request) => boolean;
}

/**
 * Enforces both session timeouts on the server, whatever the cookie or the store say: a signed-in session past
 * either limit is destroyed (a fresh empty session takes its place), and the request goes on as anonymous.
 *
 * Mount after express-session and before passport's session middleware, so an expired user is never loaded.
 * `lastSeenAt` is written only when it moved by a step (a tenth of the idle time, at most a minute), so a busy
 * user does not rewrite the session on every request; the idle limit is then exact to within that step.
 */
export function enforceSessionTimeouts(options: SessionTimeoutOptions): RequestHandler {
  const step = Math.min(60_000, Math.max(1, Math.floor(options.idleMs / 10)));
  return (req, _res, next) => {
    const session = req.session;
    if (!session?.passport?.user) {
      next();
      return;
    }
    const now = options.now();
    const { createdAt, lastSeenAt } = session;
    const expired =
      typeof createdAt !== 'number' ||
      typeof lastSeenAt !== 'number' ||
      now - createdAt >= options.absoluteMs ||
      now - lastSeenAt >= options.idleMs;
    if (expired) {
      session.regenerate((error: unknown) => next(error));
      return;
    }
    if (now - lastSeenAt >= step && !options.isPeek?.(req)) session.lastSeenAt = now;
    next();
  };
}
