/**
 * Links in slot props come from server data. Only same-site paths and http(s)/mailto URLs become `href`s, so a
 * registration can never smuggle a `javascript:` URL into the page.
 */
export function safeHref(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const href = value.trim();
  if (href.startsWith('/') && !href.startsWith('//')) return href;
  if (href.startsWith('#')) return href;
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** True when the link leaves this site, so it opens in a new tab. */
export function isExternalHref(href: string): boolean {
  return /^(https?:)?\/\//i.test(href) && !href.startsWith(`${window.location.origin}/`);
}
