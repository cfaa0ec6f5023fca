import { useCallback } from 'react';

/**
 * The custom property of the document's root that holds the height of the placements editor's sticky toolbar while
 * the editor is shown: placements.css makes it the document's scroll padding, so that what gets the focus (Tab,
 * Shift+Tab) or is reached from the contents is scrolled into view below the toolbar, not under it.
 */
export const TOOLBAR_HEIGHT_PROPERTY = '--placements-toolbar-height';

/**
 * A ref for the editor's sticky toolbar that keeps TOOLBAR_HEIGHT_PROPERTY at its height: it wraps onto more lines on
 * a phone, and its status line varies, so no fixed value clears it. Followed through a ResizeObserver where there is
 * one (the stylesheet's fallback applies elsewhere); removed when the toolbar goes.
 */
export function useToolbarClearance(): (toolbar: HTMLElement | null) => (() => void) | undefined {
  return useCallback((toolbar: HTMLElement | null) => {
    if (toolbar === null) return undefined;
    const root = toolbar.ownerDocument.documentElement;
    const measure = () => root.style.setProperty(TOOLBAR_HEIGHT_PROPERTY, `${toolbar.offsetHeight}px`);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(toolbar);
    return () => {
      observer?.disconnect();
      root.style.removeProperty(TOOLBAR_HEIGHT_PROPERTY);
    };
  }, []);
}
