import type { RequestHandler } from 'express';
import { noSessionRefusal } from '../auth/no-session-refusal';

/**
 * `guard` for a releases route only staff use, its refusal of a request without a session naming the route's remote
 * (a bearer token's 403 then says the two routes of that remote a team token does serve: no-session-refusal.ts). A
 * signed-in request goes to `guard` whatever its Authorization header says: the session is what those routes act as.
 */
export function staffOnly(guard: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (!req.user) {
      const { name } = req.params;
      next(noSessionRefusal(req, typeof name === 'string' ? name : undefined));
      return;
    }
    guard(req, res, next);
  };
}
