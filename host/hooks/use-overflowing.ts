import { useCallback, useEffect, useState, type RefCallback } from 'react';

/**
 * Whether an element's content is wider than the element (it scrolls sideways), following both: the frame resizes
 * with the window, the content with what it holds (a record list's rows arriving). A record list's frame marks it, so
 * that the pinned actions column shows its shadow over the columns scrolling beneath only then: a list that fits
 * looks as it always did. Where ResizeObserver does not exist, the window's resizes are followed instead.
 */
export function useOverflowing<T extends HTMLElement>(): { ref: RefCallback<T>; overflowing: boolean } {
  const [element, setElement] = useState<T | null>(null);
  const [overflowing, setOverflowing] = useState(false);
  const ref = useCallback((node: T | null) => setElement(node), []);

  useEffect(() => {
    if (!element) return undefined;
    // A pixel of rounding (zoom, fractional widths) is not a scroll.
    const measure = () => setOverflowing(element.scrollWidth > element.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') {
      window.addEventListener('resize', measure);
      return () => window.removeEventListener('resize', measure);
    }
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [element]);

  return { ref, overflowing };
}
