/**
 * Which public slots each host page shows, known once for both sides: the server names their components in the
 * host page's boot data and preload hints, the host prefetches them before React has loaded, and the host's pages
 * and layout render the same locations. Only public locations appear here: this answers anonymous visitors.
 */
import { SlotLocation } from './slot-location';
import type { SlotContent, SlotMap } from './wire';

/** The sign-in page's path (the host's route). */
export const SIGN_IN_PATH = '/login';

/** The service status page's path (the host's route, open to every visitor, as the footer links to it). */
export const SERVICE_STATUS_PATH = '/status';

/** The sign-in page shows its sidebar (login-sidebar) at these widths only: desktop, 1024 px and wider. */
export const SIGN_IN_SIDEBAR_MEDIA = '(min-width: 1024px)';

/** Locations the host's layout renders on every page, for every visitor. */
export const LAYOUT_LOCATIONS: readonly SlotLocation[] = Object.freeze([
  SlotLocation.HEADER_BANNER,
  SlotLocation.GLOBAL_BEFORE_CONTENT,
  SlotLocation.GLOBAL_AFTER_CONTENT,
]);

/** What the sign-in page adds to the layout's. */
export const SIGN_IN_LOCATIONS: readonly SlotLocation[] = Object.freeze([
  SlotLocation.LOGIN_BEFORE_FORM,
  SlotLocation.LOGIN_AFTER_FORM,
  SlotLocation.LOGIN_SIDEBAR,
]);

/** The media query a location is rendered under, or null when it is rendered at every width. */
export function locationMedia(location: SlotLocation): string | null {
  return location === SlotLocation.LOGIN_SIDEBAR ? SIGN_IN_SIDEBAR_MEDIA : null;
}

/**
 * The components the public slots make the host render at `pathname`, nested content included: the layout's
 * locations on every page, the sign-in page's own on the sign-in path. Component -> the media query it is shown
 * under, or null when it is shown at every width. Protected locations are never read, whatever `slots` holds.
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
    if (Array.isArray(entries)) visit(entries, locationMedia(location));
  }
  return shown;
}
