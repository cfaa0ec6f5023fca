import { SlotLocation, type PlacementsDocument } from '../../../shared';

/** The address's key for the part of the draft the editor shows: `/placements?location=dashboard-before-cards`. */
export const LOCATION_PARAM = 'location';

/** The value of LOCATION_PARAM that shows the form slots (no location has that name). */
export const FORM_SLOTS = 'forms';

/**
 * What the editor shows, one at a time: the location (or FORM_SLOTS) the address names, else the first location the
 * draft places a slot at (where an operator most likely works), else the dashboard's first. An unknown name in the
 * address falls back the same way, so an old or mistyped link still opens the editor.
 */
export function chosenLocation(asked: string | null, document: PlacementsDocument): string {
  if (asked === FORM_SLOTS || (asked !== null && SlotLocation.tryFrom(asked) !== undefined)) return asked;
  // A location of the draft this version does not have (an upgrade renamed or removed it): shown, to mend it.
  if (asked !== null && goneLocationsOf(document).includes(asked)) return asked;
  return firstPlacedLocation(document);
}

/**
 * The locations the document places slots at that this version of the product does not have (an upgrade renamed or
 * removed them), in document order: the editor lists them apart, so their slots can be removed and placed again.
 */
export function goneLocationsOf(document: PlacementsDocument): string[] {
  const gone = new Set<string>();
  for (const entry of document.remotes ?? []) {
    for (const location of Object.keys(entry.slots ?? {})) {
      if (SlotLocation.tryFrom(location) === undefined) gone.add(location);
    }
  }
  return [...gone];
}

/** The first location the document places a slot at, else the dashboard's first. */
export function firstPlacedLocation(document: PlacementsDocument): string {
  for (const entry of document.remotes ?? []) {
    const placed = Object.keys(entry.slots ?? {}).find((location) => SlotLocation.tryFrom(location) !== undefined);
    if (placed !== undefined) return placed;
  }
  return SlotLocation.DASHBOARD_BEFORE_CARDS.value;
}
