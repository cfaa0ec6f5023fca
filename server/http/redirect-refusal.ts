import { shortened } from './quoted-value';

/**
 * Why an answer is refused for being a redirect (3xx), or null when it is none; the refused answer's body is
 * cancelled, never read. The files of a team's origin are read only at the address given, the one checked against
 * the entry rules (checkEntryUrl) and the origins allowed for the team (releases/release-origin-refusal.ts):
 * following a redirect would let an allowed origin send the server's request anywhere, its internal addresses
 * included (server-side request forgery). So every such request is made with `redirect: 'manual'` and its answer
 * goes through here first (scripts/remotes-types.ts reads descriptors alike).
 */
export async function redirectRefusal(url: string, response: Response): Promise<string | null> {
  // 'opaqueredirect' (status 0) is what the fetch standard gives for a manual redirect; Node's fetch gives the 3xx.
  const redirected = response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
  if (!redirected) return null;
  await response.body?.cancel();
  const to = locationOrigin(url, response.headers.get('location'));
  return (
    `${url} answered ${response.status}, a redirect${to === null ? '' : ` to ${to}`}: files are read at the ` +
    'address given, redirects are not followed'
  );
}

/** The origin the redirect points to (named for the team, never asked), or null when there is none to name. */
function locationOrigin(url: string, location: string | null): string | null {
  if (location === null) return null;
  try {
    const { origin } = new URL(location, url);
    return origin === 'null' ? null : shortened(origin);
  } catch {
    return null;
  }
}
