import type { RemotesConfig } from '../remotes/remotes-config';

/**
 * Why a team may not publish a release of `remote` whose entry is `entry`, or null when it may. A team's token is
 * not trusted configuration: the entry it gives is asked by the server (its descriptor, manifest and entry script,
 * then polled once the release is in force), so an entry on an internal address would let a team probe, and read
 * back, what the server reaches (server-side request forgery). When REMOTES_CONFIG gives the remote
 * `"releaseOrigins"`, the entry must be on one of them or on the origin of the remote's own entry; origins are
 * compared after URL parsing, so another spelling of an address (`http://2130706433/`) or a DNS name for it
 * (`localhost`) is another origin, refused before any request or name look-up. Without `"releaseOrigins"` any entry
 * the entry rules allow is taken (checkEntryUrl).
 */
export function releaseOriginRefusal(
  config: Pick<RemotesConfig, 'releaseOrigins'>,
  remote: string,
  entry: URL,
): string | null {
  const allowed = config.releaseOrigins?.get(remote);
  if (allowed === undefined || allowed.includes(entry.origin)) return null;
  const ask = `Ask the operators to add the origin to the remote's "releaseOrigins" in REMOTES_CONFIG.`;
  if (allowed.length === 0) {
    return (
      `"entry" ${JSON.stringify(entry.href)} is on ${entry.origin}, but the operators allow the releases of remote ` +
      `"${remote}" from no origin ("releaseOrigins" is empty and its REMOTES_CONFIG entry is on this server), and ` +
      `nothing was asked there. ${ask}`
    );
  }
  return (
    `"entry" ${JSON.stringify(entry.href)} is on ${entry.origin}, an origin the operators have not allowed for the ` +
    `releases of remote "${remote}": they are published from ${allowed.join(', ')} only (the origin of its ` +
    `REMOTES_CONFIG entry and its "releaseOrigins"), and nothing was asked there. ${ask}`
  );
}
