import type { RequestHandler } from 'express';
import { HttpError } from '../http/http-error';

/**
 * The 403 of a team token (or any bearer token) sent to a releases route that only staff use: what a team token does
 * (releasesRouter's `requireTeamToken` and `rolloutActor`), and who does the rest and where. `remote`: the route's,
 * when it names one.
 */
export function teamTokenNotServedMessage(remote: string | undefined): string {
  const name = remote ?? '<name>';
  return (
    `A team token only publishes its remote's releases (POST /api/remotes/${name}/releases) and, where the ` +
    `operators allow it ("teamRollouts" in the remote's REMOTES_CONFIG entry), starts and steers its progressive ` +
    `rollouts (/api/remotes/${name}/rollouts). Activating a release, rolling back, canaries and the rest of the ` +
    'releases API are for staff: an operator does it on the Releases page (/releases), or with a request signed in ' +
    'as one.'
  );
}

/**
 * `guard` for a releases route only staff use, refusing a request that carries a bearer token and no session with
 * teamTokenNotServedMessage (403). Without this, such a request met the session guard's "Sign in to continue.", which
 * sent a team's CI looking for a sign-in it will never have. A signed-in request goes to `guard` whatever its
 * Authorization header says: the session is what those routes act as.
 */
export function staffOnly(guard: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (!req.user && /^Bearer\s/i.test(req.get('authorization') ?? '')) {
      const { name } = req.params;
      next(new HttpError('forbidden', teamTokenNotServedMessage(typeof name === 'string' ? name : undefined)));
      return;
    }
    guard(req, res, next);
  };
}
