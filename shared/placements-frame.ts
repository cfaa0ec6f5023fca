import { isPlainObject } from './json';
import { describe } from './names';

// Its own module, not placements.ts: the shell imports that one (the editor's path) and would carry this check,
// which only the placements editor's page (a chunk of its own) and the server use.

/**
 * Why no editor could show `document`, or null. A draft is saved whatever its problems (work in progress, each named
 * with its slot), but not one whose frame is broken: an object, whose `remotes` is a list of objects, each with
 * `slots` mapping locations to lists, and `forms` and `locations` objects. Such a draft could not be opened again to
 * mend it, nor its problems be named by slot.
 */
export function placementsFrameProblem(document: unknown): string | null {
  if (!isPlainObject(document)) {
    return `A placements document is an object { "remotes": [...], "locations": {...} }, got ${describe(document)}.`;
  }
  const { remotes = [], locations = {} } = document;
  if (!Array.isArray(remotes)) return `"remotes" must be a list of { "name", "slots" }, got ${describe(remotes)}.`;
  for (const [index, entry] of remotes.entries()) {
    if (!isPlainObject(entry))
      return `remotes[${index}] must be an object { "name", "slots" }, got ${describe(entry)}.`;
    const { slots = {}, forms = {} } = entry;
    if (!isPlainObject(slots)) {
      return `remotes[${index}].slots must map locations to lists of slots, got ${describe(slots)}.`;
    }
    for (const [location, items] of Object.entries(slots)) {
      if (!Array.isArray(items)) {
        return `remotes[${index}].slots["${location}"] must be a list of slots, got ${describe(items)}.`;
      }
    }
    if (!isPlainObject(forms)) {
      return `remotes[${index}].forms must map resources to lists of form slots, got ${describe(forms)}.`;
    }
  }
  if (!isPlainObject(locations))
    return `"locations" must map locations to lists of remotes, got ${describe(locations)}.`;
  return null;
}
