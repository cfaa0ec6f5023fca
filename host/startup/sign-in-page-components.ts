import { pageComponents, SIGN_IN_PATH, SIGN_IN_SIDEBAR_MEDIA, type SlotMap } from '../../shared';

/**
 * The component names the sign-in page renders from a public slot map, nested content included (the shared table
 * of page slots); login-sidebar's only at desktop widths (`wide`), as the sign-in page does.
 */
export function signInPageComponents(slots: SlotMap, wide: boolean): string[] {
  return [...pageComponents(SIGN_IN_PATH, slots)]
    .filter(([, media]) => media === null || wide)
    .map(([component]) => component);
}

/** Whether the sign-in page shows its sidebar now (false where matchMedia does not exist). */
export function signInSidebarShown(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(SIGN_IN_SIDEBAR_MEDIA).matches;
}
