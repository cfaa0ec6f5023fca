/**
 * Links in slot props come from server data. Only same-site paths and http(s)/mailto URLs become `href`s, so a
 * registration can never smuggle a `javascript:` URL into the page, nor dress another origin up as a site path.
 */
export function safeHref(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // The URL parser deletes ASCII tab, newline and carriage return wherever they are (`/<TAB>/evil.example` is
  // `//evil.example`), so decide on, and hand out, the string the browser will actually follow.
  const href = value.replace(/[\t\n\r]/g, '').trim();
  if (href === '') return undefined;
  if (href.startsWith('#')) return href;
  if (href.startsWith('/')) return isSameSitePath(href) ? href : undefined;
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** True when the link leaves this site, so it opens in a new tab. */
export function isExternalHref(href: string): boolean {
  let url: URL;
  try {
    // Resolved the way the browser resolves it: `/\host` and `//host` are other origins, `/records/1` is not.
    url = new URL(href, window.location.href);
  } catch {
    // The browser cannot follow it either; a new tab without an opener is the harmless guess.
    return true;
  }
  // mailto: and other non-web links open the visitor's own application, not a page of another site.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return url.origin !== window.location.origin;
}

/** Any origin works as the base: a path is same-site when resolving it cannot change the origin. */
const PROBE_ORIGIN = 'https://same-site.invalid';

/**
 * A backslash reads as a slash in http(s) URLs, so `/\host` and `\\host` name another host just as `//host` does.
 * Resolving against a probe origin lets the URL parser itself say so, rather than a list of spellings.
 */
function isSameSitePath(path: string): boolean {
  if (/^\/[/\\]/.test(path)) return false;
  try {
    return new URL(path, PROBE_ORIGIN).origin === PROBE_ORIGIN;
  } catch {
    return false;
  }
}
