import type { Request } from 'express';
import { teamTokenNotServedMessage } from '../../shared';
import { HttpError } from '../http/http-error';

/**
 * Why a request without a session is refused a route that only staff use: 401 `unauthenticated` ("Sign in to
 * continue."), or 403 `forbidden` saying what a team token does when it carries a bearer token. Such a request is a
 * team's CI, a script holding a token: asked to sign in, it goes looking for a sign-in it will never have. Every
 * guard of a staff route (requireSession, requirePermission, currentTenant, the releases API's staffOnly) refuses
 * through here, so the answer is the same wherever the token was sent. `remote`: the route's, when its path names
 * one. A token's own routes (publish, rollouts) never come here: they check the token, and a wrong one is their 401.
 */
export function noSessionRefusal(req: Request, remote?: string): HttpError {
  if (/^Bearer\s/i.test(req.get('authorization') ?? '')) {
    return new HttpError('forbidden', teamTokenNotServedMessage(remote));
  }
  return HttpError.unauthenticated();
}
