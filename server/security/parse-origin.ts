/**
 * The origin `value` names (`scheme://host[:port]`, a trailing slash allowed), or null when it is anything else:
 * not a string, not http(s), or with a path, query or fragment. Both ALLOWED_ORIGINS and REMOTES_CONFIG's
 * `allowedOrigins` are checked by it, so the two accept exactly the same spellings.
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
  return url.origin === value.replace(/\/$/, '') ? url.origin : null;
}
