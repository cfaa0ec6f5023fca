import { describe, isPlainObject, SlotLocation, type JsonValue, type PlacementProblem } from '../../shared';
import { FILE_ONLY_TOP_KEYS, PLACEMENTS_TOP_KEYS, unknownTopKeys } from '../../shared/placements-file-keys';
import { parseConfiguredForms, type ConfiguredFormSlot } from '../slots/configured-forms';
import { parseConfiguredSlot, type ConfiguredSlot } from '../slots/configured-slots';
import { checkRemoteName } from '../remotes/remote-names';
import type { RemotesConfig } from '../remotes/remotes-config';
import { RemotesConfigError } from '../config/remotes-config-error';
import { checkAllowLists } from '../slots/location-allow-lists';

/** A slot of the document: where it is written (remote entry, location, index in that list). */
export interface DocumentSlot extends ConfiguredSlot {
  index: number;
}

/** A placements document read: its slots, form slots and allow-lists, and what is wrong with its shape. */
export interface ParsedPlacements {
  /** In document order (remote entries in order, each entry's locations and items in order). */
  slots: DocumentSlot[];
  /** Each entry's `"forms"`, read by the code that reads REMOTES_CONFIG's (configured-forms.ts), in document order. */
  forms: ConfiguredFormSlot[];
  locationRemotes: ReadonlyMap<SlotLocation, readonly string[]>;
  /**
   * The items at a location this version does not know (an upgrade renamed or removed it), as written: each is a
   * problem too, and what a draft leaving them out removes (the diff names them).
   */
  atGoneLocations: GoneLocationSlot[];
  /** Shape problems (always blocking): every item is read, so each bad item is named, not only the first. */
  problems: PlacementProblem[];
}

/** An item of a remote entry's `"slots"` at a location this version does not know. */
export interface GoneLocationSlot {
  remote: string;
  location: string;
  index: number;
  item: JsonValue;
}

/** The document with no placement: what is in force before the first publish. */
export const EMPTY_DOCUMENT: JsonValue = Object.freeze({ remotes: [], locations: {} }) as JsonValue;

/**
 * The keys of a remote entry that place something. The remote's declaration (`entry`, `components`,
 * `formComponents`, `enabled`) stays in the file: the database places components, it does not declare remotes.
 */
const ENTRY_KEYS = ['name', 'slots', 'forms'];
/** What an imported REMOTES_CONFIG file's remote entry may hold besides placements: dropped on import, and said so. */
const FILE_ONLY_ENTRY_KEYS = new Set([
  'entry',
  'components',
  'formComponents',
  'enabled',
  'releaseOrigins',
  'teamRollouts',
]);

/**
 * Reads a placements document with the code that reads REMOTES_CONFIG's `"slots"` (parseConfiguredSlot: known
 * location, Slot.make's checks, the placement keys, no rule at a public location) and `"locations"` (checkAllowLists).
 * Whether each slot can render (its remote provides it, its props match the schema, its order targets exist) is the
 * slot check's, run on the configuration the document makes with the file (placements-check.ts).
 */
export function parsePlacements(document: unknown): ParsedPlacements {
  const problems: PlacementProblem[] = [];
  const slots: DocumentSlot[] = [];
  const forms: ConfiguredFormSlot[] = [];
  const atGoneLocations: GoneLocationSlot[] = [];
  const fail = (message: string, at: Partial<PlacementProblem> = {}) =>
    problems.push({
      remote: null,
      location: null,
      index: null,
      component: null,
      kind: 'invalid-document',
      path: null,
      message,
      blocking: true,
      ...at,
    });
  if (!isPlainObject(document)) {
    fail(
      `The placements document must be an object { "remotes": [...], "locations": {...} }, got ${describe(document)}.`,
    );
    return { slots, forms, locationRemotes: new Map(), atGoneLocations, problems };
  }
  const unknownKeys = Object.keys(document).filter((key) => !PLACEMENTS_TOP_KEYS.includes(key));
  if (unknownKeys.length > 0) {
    fail(`Unknown key(s) ${unknownKeys.join(', ')}; allowed: ${PLACEMENTS_TOP_KEYS.join(', ')}.`);
  }
  const remotes = document.remotes ?? [];
  if (!Array.isArray(remotes)) fail('"remotes" must be a list of { "name", "slots" }.');
  else {
    const seen = new Set<string>();
    remotes.forEach((entry: unknown, entryIndex) => {
      const where = `remotes[${entryIndex}]`;
      let name: string;
      try {
        name = checkRemoteName(isPlainObject(entry) ? entry.name : entry, where);
      } catch (error) {
        fail(messageOf(error));
        return;
      }
      const object = entry as Record<string, unknown>;
      if (seen.has(name)) fail(`Remote "${name}" is listed twice; give its slots in one entry.`, { remote: name });
      seen.add(name);
      const extra = Object.keys(object).filter((key) => !ENTRY_KEYS.includes(key));
      if (extra.length > 0) {
        fail(
          `${where} ("${name}"): unknown key(s) ${extra.join(', ')}; a placement names the remote, its "slots" and "forms" ` +
            '(declare remotes in REMOTES_CONFIG).',
          { remote: name },
        );
      }
      const entrySlots = parseEntrySlots(object.slots ?? {}, name, `${where} ("${name}")`, fail);
      slots.push(...entrySlots.slots);
      atGoneLocations.push(...entrySlots.atGoneLocations);
      if (object.forms !== undefined) {
        try {
          forms.push(...parseConfiguredForms(object.forms, name, `${where} ("${name}")`));
        } catch (error) {
          fail(messageOf(error), { remote: name });
        }
      }
    });
  }
  let locationRemotes: ReadonlyMap<SlotLocation, readonly string[]> = new Map();
  if (document.locations !== undefined) {
    try {
      locationRemotes = checkAllowLists(
        document.locations,
        '"locations"',
        (message) => new RemotesConfigError(message),
      );
    } catch (error) {
      fail(messageOf(error));
    }
  }
  return { slots, forms, locationRemotes, atGoneLocations, problems };
}

function parseEntrySlots(
  value: unknown,
  remote: string,
  where: string,
  fail: (message: string, at?: Partial<PlacementProblem>) => void,
): { slots: DocumentSlot[]; atGoneLocations: GoneLocationSlot[] } {
  const slots: DocumentSlot[] = [];
  const atGoneLocations: GoneLocationSlot[] = [];
  if (!isPlainObject(value)) {
    fail(`${where}: "slots" must map locations to lists of { "component", "props" }, got ${describe(value)}.`, {
      remote,
    });
    return { slots, atGoneLocations };
  }
  for (const [key, items] of Object.entries(value)) {
    const location = SlotLocation.tryFrom(key);
    const list: unknown[] = Array.isArray(items) ? items : [items];
    if (!location) {
      // Each slot named, so that the editor shows its problem on its card (a location an upgrade renamed or removed:
      // the operator removes the slot there and places it again).
      list.forEach((item, index) => {
        atGoneLocations.push({ remote, location: key, index, item: item as JsonValue });
        const component = isPlainObject(item) && typeof item.component === 'string' ? item.component : null;
        fail(
          `${where}: slots["${key}"][${index}]${component === null ? '' : ` (${component})`} is at "${key}", which is ` +
            'no location of this version (misspelt, or renamed or removed by an upgrade): remove it, or place it at ' +
            `another location. Locations: ${SlotLocation.cases()
              .map((known) => known.value)
              .join(', ')}.`,
          { remote, location: key, index, component },
        );
      });
      if (list.length === 0) fail(`${where}: "slots" names the unknown location "${key}".`, { remote, location: key });
      continue;
    }
    list.forEach((item, index) => {
      try {
        slots.push({ ...parseConfiguredSlot(item, location, remote, `${where}, slots["${key}"][${index}]`), index });
      } catch (error) {
        const component = isPlainObject(item) && typeof item.component === 'string' ? item.component : null;
        fail(messageOf(error), { remote, location: key, index, component });
      }
    });
  }
  return { slots, atGoneLocations };
}

function messageOf(error: unknown): string {
  if (error instanceof RemotesConfigError) return error.message;
  throw error;
}

/**
 * The configuration in force with database placements: the file's (and the built remotes'), with the document's
 * slots after the file's at each location (code's come first: registration order, then priority decides), its form
 * slots after the file's in each form, and its allow-lists replacing the file's (and code's) for the locations it
 * names.
 */
export function withPlacements(file: RemotesConfig, placements: ParsedPlacements | null): RemotesConfig {
  if (placements === null) return file;
  return {
    ...file,
    slots: [
      ...file.slots,
      ...placements.slots.map(({ remote, location, slot }) => ({
        remote,
        location,
        slot,
        source: 'placements' as const,
      })),
    ],
    forms: [...file.forms, ...placements.forms.map((form) => ({ ...form, source: 'placements' as const }))],
    locationRemotes: new Map([...file.locationRemotes, ...placements.locationRemotes]),
  };
}

/**
 * The placements of a REMOTES_CONFIG file, for the draft: its `"locations"` and each entry's `name`, `"slots"` and
 * `"forms"`. The rest of the file (`allowedOrigins`, an entry's `entry`, `components`...) stays the file's: it is
 * dropped and named in `ignored`. A top-level key that neither placements nor the file have is not carried into the
 * draft either: it is named in `unknown`, for the import to refuse the file (placements-router.ts says why). What is
 * wrong inside an entry is kept for the draft's check to name, with its slot.
 */
export function placementsOfFile(file: unknown): { document: JsonValue; ignored: string[]; unknown: string[] } {
  if (!isPlainObject(file)) return { document: file as JsonValue, ignored: [], unknown: [] };
  const ignored: string[] = [];
  const unknown = unknownTopKeys(file);
  const document: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(file)) {
    if (FILE_ONLY_TOP_KEYS.includes(key)) ignored.push(key);
    else if (unknown.includes(key)) continue;
    else if (key !== 'remotes' || !Array.isArray(value)) document[key] = value;
    else {
      document.remotes = value
        .map((entry: unknown, index) => {
          if (!isPlainObject(entry)) return entry;
          const kept = Object.entries(entry).filter(([entryKey]) => {
            if (!FILE_ONLY_ENTRY_KEYS.has(entryKey)) return true;
            ignored.push(`remotes[${index}].${entryKey}`);
            return false;
          });
          const placed = Object.fromEntries(kept);
          // The file may give a location's only slot as an object: the draft always holds a list (the editor's).
          if (isPlainObject(placed.slots)) {
            placed.slots = Object.fromEntries(
              Object.entries(placed.slots).map(([location, items]) => [
                location,
                isPlainObject(items) ? [items] : items,
              ]),
            );
          }
          return placed;
        })
        // An entry that only declared a remote places nothing.
        .filter((entry) => !isPlainObject(entry) || Object.keys(entry).some((key) => key !== 'name'));
    }
  }
  return { document: document as JsonValue, ignored, unknown };
}
