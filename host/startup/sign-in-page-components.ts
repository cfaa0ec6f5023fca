import { SlotLocation, type SlotContent, type SlotMap } from '../../shared';
import { LOGIN_SIDEBAR_QUERY } from '../app/login-sidebar-query';

/**
 * The component names the sign-in page renders from a public slot map, nested content included.
 * The sign-in page shows every public location (the layout's global ones and its own), login-sidebar only at
 * desktop widths (`wide`), as host/pages/login-page.tsx does.
 */
export function signInPageComponents(slots: SlotMap, wide: boolean): string[] {
  const names = new Set<string>();
  const visit = (content: SlotContent): void => {
    if (typeof content === 'string') return;
    for (const entry of Array.isArray(content) ? content : [content]) {
      names.add(entry.component);
      if (entry.content !== undefined) visit(entry.content);
    }
  };
  for (const location of SlotLocation.publicValues()) {
    if (location === SlotLocation.LOGIN_SIDEBAR.value && !wide) continue;
    const entries = slots[location];
    if (entries) visit(entries);
  }
  return [...names];
}

/** Whether the sign-in page shows its sidebar now (false where matchMedia does not exist). */
export function signInSidebarShown(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(LOGIN_SIDEBAR_QUERY).matches;
}
