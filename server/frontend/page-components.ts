import { SlotLocation, type SlotContent, type SlotMap } from '../../shared';

/** The sign-in page's path (the host's route, DESIGN.md point 15). */
export const SIGN_IN_PATH = '/login';
/** The host shows login-sidebar at these widths only (DESIGN.md point 14, host/app/login-sidebar-query.ts). */
export const SIGN_IN_SIDEBAR_MEDIA = '(min-width: 1024px)';

/** Locations the host's layout renders on every page, for every visitor. */
const LAYOUT_LOCATIONS: readonly SlotLocation[] = [
  SlotLocation.HEADER_BANNER,
  SlotLocation.GLOBAL_BEFORE_CONTENT,
  SlotLocation.GLOBAL_AFTER_CONTENT,
];
/** What the sign-in page adds. */
const SIGN_IN_LOCATIONS: readonly SlotLocation[] = [
  SlotLocation.LOGIN_BEFORE_FORM,
  SlotLocation.LOGIN_AFTER_FORM,
  SlotLocation.LOGIN_SIDEBAR,
];

/**
 * The components the public slots make the host render at `pathname`, nested content included: the layout's
 * locations on every page, the sign-in page's own on /login. Component -> the media query it is shown under, or
 * null when it is shown at every width (login-sidebar is desktop-only). Only public locations are ever read.
 */
export function pageComponents(pathname: string, slots: SlotMap): Map<string, string | null> {
  const shown = new Map<string, string | null>();
  const visit = (content: SlotContent, media: string | null): void => {
    if (typeof content === 'string') return;
    for (const entry of Array.isArray(content) ? content : [content]) {
      // Shown anywhere without a condition beats shown under one.
      if (!shown.has(entry.component) || media === null) shown.set(entry.component, media);
      if (entry.content !== undefined) visit(entry.content, media);
    }
  };
  const locations = pathname === SIGN_IN_PATH ? [...LAYOUT_LOCATIONS, ...SIGN_IN_LOCATIONS] : LAYOUT_LOCATIONS;
  for (const location of locations) {
    if (!location.isPublic()) continue;
    const entries = slots[location.value];
    if (Array.isArray(entries)) visit(entries, location === SlotLocation.LOGIN_SIDEBAR ? SIGN_IN_SIDEBAR_MEDIA : null);
  }
  return shown;
}
