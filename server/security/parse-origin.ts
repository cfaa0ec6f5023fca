/** `scheme://host[:port]` and at most a trailing slash, as written: the URL parser alone would drop a `?` or a `#`. */
const ORIGIN_SPELLING = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]+\/?$/i;

/**
 * The origin `value` names, as a browser sends it in its Origin header (lowercase, an international name in
 * punycode, no default port), or null when `value` is anything else: not a string, not http(s), with a path, query,
 * fragment or credentials, or with a wildcard host (`https://*.example.com`, which a browser never sends: such an
 * entry would look like a pattern and match nothing). Any spelling the URL parser reads as an origin is one
 * (`https://Admin.Example.com`, `https://bücher.example`, `https://admin.example.com:443/`): the comparison is of
 * parsed origins, so refusing those would only refuse what the operator meant. ALLOWED_ORIGINS, REMOTES_CONFIG's
 * `allowedOrigins` and its `releaseOrigins` are all read by it, so they accept exactly the same spellings.
 */
export function parseOrigin(value: unknown): string | null {
  if (typeof value !== 'string' || !ORIGIN_SPELLING.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.hostname.includes('*')) return null;
  return url.pathname === '/' && url.search === '' && url.hash === '' ? url.origin : null;
}
