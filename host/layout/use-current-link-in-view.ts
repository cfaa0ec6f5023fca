import { useEffect, useRef } from 'react';

/**
 * Scrolls a row that scrolls sideways (the navigation on a phone) so that its link to the current page
 * (`aria-current="page"`) is in view, centred, when it is not: at 390 px Placements, the slot inspector and Locations
 * sat past the row's right edge, so their own pages showed no current link. Only the row scrolls, never the page
 * (`scrollIntoView` would move the page too), and only when the link is cut off, so a row someone scrolled stays.
 * Again when the address changes, or the links (`links`: what the row is made from, e.g. GET /meta's modules).
 */
export function useCurrentLinkInView<E extends HTMLElement>(pathname: string, links: unknown) {
  const ref = useRef<E>(null);
  useEffect(() => {
    const row = ref.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !current || row.scrollWidth <= row.clientWidth) return;
    const rowBox = row.getBoundingClientRect();
    const box = current.getBoundingClientRect();
    if (box.left >= rowBox.left && box.right <= rowBox.right) return;
    row.scrollLeft += box.left - rowBox.left - (rowBox.width - box.width) / 2;
  }, [pathname, links]);
  return ref;
}
