import { useStickyClearance } from '../common/sticky-clearance';

/**
 * The custom property of the document's root that holds the height of the placements editor's sticky toolbar while
 * the editor is shown: placements.css makes it the document's scroll padding, so that what gets the focus (Tab,
 * Shift+Tab) or is reached from the contents is scrolled into view below the toolbar, not under it.
 */
export const TOOLBAR_HEIGHT_PROPERTY = '--placements-toolbar-height';

/**
 * A ref for the editor's sticky toolbar that keeps TOOLBAR_HEIGHT_PROPERTY at its height (useStickyClearance): it
 * wraps onto more lines on a phone, and its status line varies.
 */
export function useToolbarClearance(): (toolbar: HTMLElement | null) => (() => void) | undefined {
  return useStickyClearance(TOOLBAR_HEIGHT_PROPERTY);
}
