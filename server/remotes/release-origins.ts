import { isLoopbackHost } from '../../shared';
import { parseOrigin } from '../security/parse-origin';
import { RemotesConfigError } from '../config/remotes-config-error';

/**
 * One origin a remote's releases may be published from (release-origin-refusal.ts). It is compared as the URL parser
 * gives it, as a release's entry is (lowercase, punycode, no default port), and shown as the operator wrote it: an
 * operator who wrote `https://Bücher.Example` does not recognise `https://xn--bcher-kva.example` in a message.
 */
export interface ReleaseOrigin {
  /** The parsed origin: what a release's entry is compared with. */
  origin: string;
  /** As REMOTES_CONFIG writes it (a trailing slash left out); `origin` itself when the file gives none. */
  written: string;
}

/** How messages name `origin`: as written, followed by the parsed form when the two differ. */
export function releaseOriginLabel({ origin, written }: ReleaseOrigin): string {
  return written === origin ? origin : `${written} (${origin})`;
}

/** The `scheme://host[:port]` part of an absolute URL, as written. */
const ORIGIN_PART = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]+/i;

/**
 * A remote's `"releaseOrigins"`, after the origin of its own absolute `entry` (always allowed), each origin once.
 * Held to the rules of an entry (no wildcard, no credentials, https off loopback in production): what a release's
 * entry names, the server asks, and every page may load once it is activated, so a team token must not pick any
 * address, internal ones included. `entry` is the remote's `"entry"` as written, already checked.
 *
 * A list left empty by a remote without an entry on another server (a built-in one, or an entry that is a path on
 * this server) is refused: it would refuse every release of the remote, silently; the message says what to write.
 */
export function parseReleaseOrigins(
  value: unknown,
  entry: string | undefined,
  where: string,
  production: boolean,
): ReleaseOrigin[] {
  const wrong = () =>
    new RemotesConfigError(`${where}: "releaseOrigins" must be a list of origins like "https://cdn.example.com".`);
  if (!Array.isArray(value)) throw wrong();
  const listed = (value as unknown[]).map((written) => {
    if (typeof written !== 'string') throw wrong();
    return checkOrigin(written, where, production);
  });
  const own = entryOrigin(entry);
  const origins = own === null ? listed : [own, ...listed];
  if (origins.length === 0) {
    const why = entry === undefined ? 'it gives none' : `${JSON.stringify(entry)} is a path on this server`;
    throw new RemotesConfigError(
      `${where}: "releaseOrigins" is empty and the remote has no "entry" on another server whose origin it would ` +
        `allow (${why}), so no release of it could be published or put in force. List at least one origin its ` +
        'team publishes from, or remove "releaseOrigins" to allow any origin the entry rules allow (to stop the ' +
        "team's releases, revoke its token: npm run token:revoke).",
    );
  }
  const seen = new Set<string>();
  return origins.filter(({ origin }) => !seen.has(origin) && seen.add(origin));
}

function checkOrigin(written: string, where: string, production: boolean): ReleaseOrigin {
  let url: URL | null = null;
  try {
    url = new URL(written);
  } catch {
    // Said below: not an origin.
  }
  if (url !== null && (url.username !== '' || url.password !== '')) {
    throw new RemotesConfigError(
      `${where}: "releaseOrigins" holds an origin with credentials (user:password@); give the origin alone.`,
    );
  }
  if (url?.hostname.includes('*')) {
    throw new RemotesConfigError(
      `${where}: "releaseOrigins" holds ${JSON.stringify(written)}, a wildcard pattern; list each origin ` +
        '(scheme://host[:port]) the team publishes from.',
    );
  }
  // Any spelling the URL parser reads as an origin is one (parseOrigin): uppercase, an international name, a default port.
  const parsed = parseOrigin(written);
  if (url === null || parsed === null) {
    throw new RemotesConfigError(
      `${where}: "releaseOrigins" holds ${JSON.stringify(written)}, which is not an origin (scheme://host[:port], ` +
        'no path).',
    );
  }
  const origin: ReleaseOrigin = { origin: parsed, written: written.replace(/\/$/, '') };
  if (production && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new RemotesConfigError(
      `${where}: "releaseOrigins" holds ${quotedLabel(origin)}, plain http on a host other than this ` +
        "machine (NODE_ENV=production): anyone on the way could replace the remote's code. Serve it over https.",
    );
  }
  return origin;
}

/** `releaseOriginLabel` for a message that quotes what the file holds: `"https://CDN.example" (https://cdn.example)`. */
function quotedLabel({ origin, written }: ReleaseOrigin): string {
  return written === origin ? JSON.stringify(origin) : `${JSON.stringify(written)} (${origin})`;
}

/** The origin of an absolute `entry`, as written too; null for a path on this server (or no entry). */
function entryOrigin(entry: string | undefined): ReleaseOrigin | null {
  if (entry === undefined) return null;
  let origin: string;
  try {
    origin = new URL(entry).origin;
  } catch {
    return null;
  }
  return { origin, written: ORIGIN_PART.exec(entry)?.[0] ?? origin };
}
