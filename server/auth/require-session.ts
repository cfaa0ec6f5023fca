import type { RequestHandler } from 'express';
import { noSessionRefusal } from './no-session-refusal';

/**
 * The guard of every route that needs a signed-in user: 401 `unauthenticated` otherwise (403 for a bearer token:
 * no-session-refusal.ts).
 */
export const requireSession: RequestHandler = (req, _res, next) => {
  if (req.user) {
    next();
    return;
  }
  next(noSessionRefusal(req));
};
