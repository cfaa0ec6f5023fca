import { useEffect, useRef } from 'react';

/**
 * Keeps the links of a row that scrolls sideways (the navigation on a phone) in view when they matter, scrolling only
 * the row, never the page (`scrollIntoView` would move the page too):
 * - its link to the current page (`aria-current="page"`), centred, when it is cut off: at 390 px Placements, the slot
 *   inspector and Locations sat past the row's right edge, so their own pages showed no current link. Again when the
 *   address changes, or the links (`links`: what the row is made from, e.g. GET /meta's modules); only when cut off,
 *   so a row someone scrolled stays;
 * - the link the focus moves to, whole: Chromium scrolls a focused element into view only when none of it shows, and
 *   Tab left Placements with 13 of its 109 px in view.
 */
export function useCurrentLinkInView<E extends HTMLElement>(pathname: string, links: unknown) {
  const ref = useRef<E>(null);
  useEffect(() => {
    const row = ref.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (row && current) showInRow(row, current);
  }, [pathname, links]);
  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    const focused = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement) showInRow(row, event.target);
    };
    row.addEventListener('focusin', focused);
    return () => row.removeEventListener('focusin', focused);
  }, []);
  return ref;
}

/** Centres `link` in `row` when the row scrolls sideways and the link is not wholly in view. */
function showInRow(row: HTMLElement, link: HTMLElement): void {
  if (row.scrollWidth <= row.clientWidth) return;
  const rowBox = row.getBoundingClientRect();
  const box = link.getBoundingClientRect();
  if (box.left >= rowBox.left && box.right <= rowBox.right) return;
  row.scrollLeft += box.left - rowBox.left - (rowBox.width - box.width) / 2;
}
