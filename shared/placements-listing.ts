import { isPlainObject, type JsonValue } from './json';
import type { PlacementsDocument } from './placements';
import { DEFAULT_SLOT_PRIORITY } from './slot-placement';

// Its own module, not placements.ts: the shell imports that one (the editor's path). The editor lists a draft's
// entries with these, and the server numbers a refusal's problems with them, so "#2" is the page's second card.

/** A slot of a draft as the document writes it (component, props, placement keys). */
export type DraftSlot = Record<string, JsonValue>;

/** A slot of a draft where the document holds it: `remotes[name].slots[location][index]`. */
export interface DraftSlotAt {
  remote: string;
  location: string;
  index: number;
  slot: DraftSlot;
}

/** A form slot of a draft where the document holds it: `remotes[name].forms[resource][index]`. */
export interface DraftFormSlotAt {
  remote: string;
  resource: string;
  index: number;
  slot: DraftSlot;
}

/**
 * The slots a document places at `location`, as the editor lists them: lower priority first, equal ones in document
 * order (as served, before and after aside). Items that are not objects are not listed: no editor could show them.
 */
export function slotsAt(document: PlacementsDocument, location: string): DraftSlotAt[] {
  const found: DraftSlotAt[] = [];
  for (const entry of entriesOf(document)) {
    const items: unknown = isPlainObject(entry.slots) ? entry.slots[location] : undefined;
    if (!Array.isArray(items)) continue;
    items.forEach((slot: unknown, index) => {
      if (isPlainObject(slot)) found.push({ remote: entry.name, location, index, slot: slot as DraftSlot });
    });
  }
  return found
    .map((item, order) => ({ item, order }))
    .sort((a, b) => priorityOf(a.item.slot) - priorityOf(b.item.slot) || a.order - b.order)
    .map(({ item }) => item);
}

/** A slot's priority as the editor orders it (a priority that is not a number reads as the default). */
export function priorityOf(slot: DraftSlot): number {
  return typeof slot.priority === 'number' ? slot.priority : DEFAULT_SLOT_PRIORITY;
}

/** Every form slot of a document, as the editor lists them: in document order (remote entries, resources, items). */
export function formSlotsOf(document: PlacementsDocument): DraftFormSlotAt[] {
  return entriesOf(document).flatMap((entry) =>
    Object.entries(isPlainObject(entry.forms) ? entry.forms : {}).flatMap(([resource, items]) =>
      (Array.isArray(items) ? items : []).flatMap((slot: unknown, index) =>
        isPlainObject(slot) ? [{ remote: entry.name, resource, index, slot: slot as DraftSlot }] : [],
      ),
    ),
  );
}

/** The remote entries of a document of any shape (a draft saved by an older server may have a broken frame). */
function entriesOf(document: PlacementsDocument): NonNullable<PlacementsDocument['remotes']> {
  const remotes: unknown = isPlainObject(document) ? document.remotes : undefined;
  const entries = Array.isArray(remotes) ? remotes.filter((entry) => isPlainObject(entry)) : [];
  return entries as NonNullable<PlacementsDocument['remotes']>;
}
