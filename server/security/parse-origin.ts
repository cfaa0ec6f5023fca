/**
 * The origin `value` names (`scheme://host[:port]`, a trailing slash allowed), or null when it is anything else:
 * not a string, not http(s), with a path, query or fragment, or with a wildcard host (`https://*.example.com`, which
 * a browser never sends as an Origin: such an entry would look like a pattern and match nothing). Both
 * ALLOWED_ORIGINS and REMOTES_CONFIG's `allowedOrigins` are checked by it, so the two accept exactly the same spellings.
 */
export function parseOrigin(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.hostname.includes('*')) return null;
  return url.origin === value.replace(/\/$/, '') ? url.origin : null;
}
