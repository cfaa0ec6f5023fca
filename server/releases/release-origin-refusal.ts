import { domainToUnicode } from 'node:url';
import { releaseOriginLabel } from '../remotes/release-origins';
import type { RemotesConfig } from '../remotes/remotes-config';

/**
 * Why a team may not publish a release of `remote` whose entry is `entry`, or null when it may. A team's token is
 * not trusted configuration: the entry it gives is asked by the server (its descriptor, manifest and entry script,
 * then polled once the release is in force), so an entry on an internal address would let a team probe, and read
 * back, what the server reaches (server-side request forgery). When REMOTES_CONFIG gives the remote
 * `"releaseOrigins"`, the entry must be on one of them or on the origin of the remote's own entry; origins are
 * compared after URL parsing, so another spelling of an address (`http://2130706433/`) or a DNS name for it
 * (`localhost`) is another origin, refused before any request or name look-up, while another spelling of an allowed
 * name (`https://CDN.example.com`, `https://bücher.example`) is that origin. Without `"releaseOrigins"` any entry the
 * entry rules allow is taken (checkEntryUrl).
 */
export function releaseOriginRefusal(
  config: Pick<RemotesConfig, 'releaseOrigins'>,
  remote: string,
  entry: URL,
): string | null {
  const allowed = config.releaseOrigins?.get(remote);
  if (allowed === undefined || allowed.some(({ origin }) => origin === entry.origin)) return null;
  // The allowed origins as the operators wrote them, since that is what they would look for in REMOTES_CONFIG.
  return (
    `"entry" ${JSON.stringify(entry.href)} is on ${readableOrigin(entry)}, an origin the operators have not allowed ` +
    `for the releases of remote "${remote}": they are published from ${allowed.map(releaseOriginLabel).join(', ')} ` +
    `only (the origin of its REMOTES_CONFIG entry and its "releaseOrigins"), and nothing was asked there. Ask the ` +
    `operators to add the origin to the remote's "releaseOrigins" in REMOTES_CONFIG.`
  );
}

/**
 * The entry's origin, with its international name beside the punycode the parser turned it into
 * (`https://xn--bcher-kva.example (https://bücher.example)`): the team wrote the one, the server compares the other.
 */
function readableOrigin(entry: URL): string {
  const name = domainToUnicode(entry.hostname);
  if (name === '' || name === entry.hostname) return entry.origin;
  return `${entry.origin} (${entry.protocol}//${name}${entry.port === '' ? '' : `:${entry.port}`})`;
}
