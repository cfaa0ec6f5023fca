import { safeHref } from './safe-href';

export interface LinkItem {
  label: string;
  href: string;
}

/** The usable `{ label, href }` items of a `links` prop; anything malformed or unsafe is dropped. */
export function linkItems(links: unknown): LinkItem[] {
  if (!Array.isArray(links)) return [];
  const items: LinkItem[] = [];
  for (const link of links) {
    if (link === null || typeof link !== 'object') continue;
    const { label, href } = link as { label?: unknown; href?: unknown };
    const safe = safeHref(href);
    if (typeof label === 'string' && label.trim() !== '' && safe) items.push({ label, href: safe });
  }
  return items;
}
