/**
 * PUBLIC_URL, the address where staff open the product: read and refused plainly when it is no origin, added to
 * the lists of origins the server answers, and the warnings a start gives when the rest of the settings leave it
 * unable to do its part (no TLS seen behind an https address; no address at all on a server listening beyond this
 * machine).
 */
import { isLoopbackHost } from '../../shared';
import { ConfigError } from '../config/config-error';
import type { TlsSettings } from '../config/tls-settings';
import type { TrustProxySetting } from '../config/trust-proxy';
import { parseOrigin } from './parse-origin';

/** PUBLIC_URL's origin, undefined when unset or blank; a ConfigError saying what is wrong with one that is no origin. */
export function publicOriginFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.PUBLIC_URL;
  const value = raw?.trim();
  if (!value) return undefined;
  const origin = parseOrigin(value);
  if (origin === null) {
    throw new ConfigError(
      `PUBLIC_URL=${JSON.stringify(raw)} is not where the product's pages are opened: ${publicUrlProblem(value)}. ` +
        'Give http(s)://host[:port], e.g. https://admin.example.com.',
    );
  }
  return origin;
}

/**
 * `declared` with PUBLIC_URL's origin among them (once), or `declared` itself without one; `'*'` (any origin) stays
 * any. The product's own pages are at PUBLIC_URL whatever else is declared, so every list of origins the server
 * answers is built here: the cross-site guard's (with ALLOWED_ORIGINS) and the CORS of the remotes' files (with
 * REMOTES_CONFIG's `allowedOrigins`), which must never disagree about the product's own address.
 */
export function withPublicOrigin(declared: readonly string[], publicOrigin: string | undefined): readonly string[];
export function withPublicOrigin(
  declared: readonly string[] | '*',
  publicOrigin: string | undefined,
): readonly string[] | '*';
export function withPublicOrigin(
  declared: readonly string[] | '*',
  publicOrigin: string | undefined,
): readonly string[] | '*' {
  if (publicOrigin === undefined || declared === '*' || declared.includes(publicOrigin)) return declared;
  return [...declared, publicOrigin];
}

/**
 * Said at start when PUBLIC_URL is https but this server can see no TLS: it speaks plain HTTP itself and trusts no
 * proxy to say a request came over TLS (`X-Forwarded-Proto`), so the session cookie goes without `Secure` and no HSTS
 * is sent, whatever the pages' address says. Not refused: a proxy may end TLS on the same machine for a trial.
 */
export function publicUrlWithoutTlsWarning(config: {
  publicOrigin: string | undefined;
  tls: TlsSettings | undefined;
  trustProxy: TrustProxySetting;
}): string | undefined {
  if (!config.publicOrigin?.startsWith('https://') || config.tls !== undefined) return undefined;
  if (config.trustProxy !== false && config.trustProxy !== 0) return undefined;
  return (
    `PUBLIC_URL is ${config.publicOrigin}, but this server sees no TLS: it speaks plain HTTP and TRUST_PROXY is not ` +
    'set, so it cannot learn that a request came over HTTPS. The session cookie goes without Secure and no HSTS is ' +
    'sent. Set TRUST_PROXY to the proxy that ends TLS (it must send X-Forwarded-Proto), or TLS_CERT_FILE and ' +
    'TLS_KEY_FILE.'
  );
}

/**
 * Said at start when PUBLIC_URL is not set and the server listens beyond this machine: it then takes a page at
 * whatever address a request's Host header names as its own (it knows no other), so a page whose name was made to
 * point at it (DNS rebinding) passes the cross-site check. Not refused: a trial on a private network needs no name,
 * and a loopback server (`npm start` on a laptop) says nothing.
 */
export function withoutPublicUrlWarning(config: {
  publicOrigin: string | undefined;
  host: string;
}): string | undefined {
  if (config.publicOrigin !== undefined || config.host === '::1' || isLoopbackHost(config.host)) return undefined;
  return (
    `PUBLIC_URL is not set and this server listens on ${config.host}: it takes a page at whatever address a ` +
    "request's Host header names as its own, so a page of another site whose name was made to point at this server " +
    '(DNS rebinding) may send it changes and sign-ins. Set PUBLIC_URL to where staff open the product, and ' +
    'ALLOWED_ORIGINS to any other address they use.'
  );
}

/** What is wrong with a PUBLIC_URL that is no origin, said plainly. */
function publicUrlProblem(value: string): string {
  // As written: the URL parser drops a path it can resolve away (`/%2e` is `/`) and refuses a port out of range whole.
  const written = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*?(?::(\d+))?([/?#].*)?$/i.exec(value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    if (written?.[1] !== undefined && Number(written[1]) > 65535) return 'its port is above 65535';
    return 'it is not a URL (a scheme and a host)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `its scheme is ${url.protocol} (http or https)`;
  if (url.username !== '' || url.password !== '') return 'it holds a user name or password';
  if (url.hostname.includes('*')) return 'its host is a pattern (one host only)';
  const path = written?.[2];
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || (path !== undefined && path !== '/')) {
    return "it has a path, a query or a fragment (the pages are served at their origin's root)";
  }
  return 'it is not written as scheme://host[:port]';
}
