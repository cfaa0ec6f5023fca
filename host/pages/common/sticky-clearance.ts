import { useCallback } from 'react';

/**
 * A ref for a bar kept at the top of the window (position: sticky) that keeps `property`, a custom property of the
 * document's root, at the bar's height while it is shown. The page's stylesheet makes it the document's scroll
 * padding, so that what gets the focus (Tab, Shift+Tab) is scrolled into view below the bar, not under it: a bar
 * wraps onto more lines as the window narrows and as its content varies, so no fixed value clears it. Followed
 * through a ResizeObserver where there is one (the stylesheet's fallback applies elsewhere); removed with the bar.
 */
export function useStickyClearance(property: string): (bar: HTMLElement | null) => (() => void) | undefined {
  return useCallback(
    (bar: HTMLElement | null) => {
      if (bar === null) return undefined;
      const root = bar.ownerDocument.documentElement;
      const measure = () => root.style.setProperty(property, `${bar.offsetHeight}px`);
      measure();
      const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
      observer?.observe(bar);
      return () => {
        observer?.disconnect();
        root.style.removeProperty(property);
      };
    },
    [property],
  );
}
