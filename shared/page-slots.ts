/**
 * Which slots each host page shows, known once for both sides: the server names the components of the public ones
 * in the host page's boot data and preload hints, the host prefetches them (and, signed in, those of GET /meta)
 * before React has loaded, and the host's pages and layout render the same locations.
 */
import { SlotLocation } from './slot-location';
import type { SlotContent, SlotMap } from './wire';

/** The slot inspector's path (the host's route, for signed-in staff; linked from the navigation in development). */
export const SLOT_INSPECTOR_PATH = '/inspect';

/** The location catalogue's path (the host's route, for signed-in staff): every location and what fills it. */
export const LOCATIONS_PAGE_PATH = '/locations';

/** The sign-in page's path (the host's route). */
export const SIGN_IN_PATH = '/login';

/** The sign-out page's path (the host's route: a browser opening it is asked to confirm; signing out is a POST). */
export const SIGN_OUT_PATH = '/logout';

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

/**
 * Record pages: `/resources/<resource>/<id>` (view) and `/resources/<resource>/<id>/edit`. Not a resource's Recently
 * deleted page, `/resources/<resource>/deleted`, which shows the layout's locations only.
 */
const RECORD_VIEW_PATH = /^\/resources\/[^/]+\/(?!deleted\/?$)[^/]+\/?$/;
const RECORD_EDIT_PATH = /^\/resources\/[^/]+\/[^/]+\/edit\/?$/;

/**
 * The locations a signed-in page renders: the layout's, the tenant switcher in the header, and the page's own
 * (the dashboard's cards on `/`, the record pages' actions, form and relations). Protected locations included: this
 * is for the host, with the signed-in visitor's own GET /meta, never for an anonymous answer.
 */
export function signedInPageLocations(pathname: string): readonly SlotLocation[] {
  const locations = [...LAYOUT_LOCATIONS, SlotLocation.TENANT_SWITCHER];
  if (pathname === '/') locations.push(SlotLocation.DASHBOARD_BEFORE_CARDS, SlotLocation.DASHBOARD_AFTER_CARDS);
  else if (RECORD_EDIT_PATH.test(pathname)) {
    locations.push(
      SlotLocation.RESOURCE_EDIT_ACTIONS,
      SlotLocation.RESOURCE_BEFORE_FORM,
      SlotLocation.RESOURCE_AFTER_FORM,
    );
  } else if (RECORD_VIEW_PATH.test(pathname)) {
    locations.push(
      SlotLocation.RESOURCE_PAGE_ACTIONS,
      SlotLocation.RESOURCE_BEFORE_RELATIONS,
      SlotLocation.RESOURCE_AFTER_RELATIONS,
    );
  }
  return locations;
}

/** The media query a location is rendered under, or null when it is rendered at every width. */
export function locationMedia(location: SlotLocation): string | null {
  return location === SlotLocation.LOGIN_SIDEBAR ? SIGN_IN_SIDEBAR_MEDIA : null;
}

/**
 * The components the slots make the host render at `pathname`, nested content included. For an anonymous visitor
 * (the default): the public slots of the layout's locations on every page, and the sign-in page's own on the sign-in
 * path; protected locations are never read, whatever `slots` holds. For a signed-in visitor: the locations of
 * {@link signedInPageLocations}. Component -> the media query it is shown under, or null at every width.
 */
export function pageComponents(
  pathname: string,
  slots: SlotMap,
  visitor: 'anonymous' | 'signed-in' = 'anonymous',
): Map<string, string | null> {
  const shown = new Map<string, string | null>();
  const visit = (content: SlotContent, media: string | null): void => {
    if (typeof content === 'string') return;
    for (const entry of Array.isArray(content) ? content : [content]) {
      // Shown anywhere without a condition beats shown under one.
      if (!shown.has(entry.component) || media === null) shown.set(entry.component, media);
      if (entry.content !== undefined) visit(entry.content, media);
    }
  };
  const locations =
    visitor === 'signed-in'
      ? signedInPageLocations(pathname)
      : pathname === SIGN_IN_PATH
        ? [...LAYOUT_LOCATIONS, ...SIGN_IN_LOCATIONS]
        : LAYOUT_LOCATIONS;
  for (const location of locations) {
    if (visitor === 'anonymous' && !location.isPublic()) continue;
    const entries = slots[location.value];
    if (Array.isArray(entries)) visit(entries, locationMedia(location));
  }
  return shown;
}
