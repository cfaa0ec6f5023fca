import { isPlainObject, SLOT_ID_PATTERN, type PlacementPreview, type PlacementsDocument } from '../../../shared';
import { slotKey, slotsAt, type DraftSlot, type DraftSlotAt } from './placements-draft';

/** A slot placed at a location, as the editor's `before`/`after` choices offer it. */
export interface PlacedSlotId {
  /** Its id there: given, or derived from its component (`Banner`, `Banner#2`), as the server derives it. */
  id: string;
  /** How the editor names it: `code's Welcome`, `the file's Notice (team_news)`, a draft's card `Banner (team_marketing) #2`. */
  name: string;
  /** The draft's card it is (slotKey), or null for a slot of code or of the file. */
  key: string | null;
  /** The draft's slot (its `before` and `after` are edges of the order), or null for code's and the file's. */
  slot: DraftSlot | null;
}

/** Every slot placed at one location, with its id: what the id, `before` and `after` fields are checked against. */
export interface LocationIds {
  location: string;
  /** Code's and the file's slots (as the saved draft's order lists them), then the draft's, in document order. */
  slots: readonly PlacedSlotId[];
}

/** What is wrong with a card's id, `before` and `after`, as the server's slot check would find it; null: nothing. */
export interface OrderFieldProblems {
  id: string | null;
  before: string | null;
  after: string | null;
}

export const NOT_AN_ID =
  'Not a slot id: a letter or digit, then letters, digits and _ - . : # /, at most 128 characters (e.g. promo-banner).';

/** Whether `text` is an id the server takes (SLOT_ID_PATTERN, shared/slot-placement.ts). */
export function isSlotId(text: unknown): text is string {
  return typeof text === 'string' && SLOT_ID_PATTERN.test(text);
}

/**
 * The slots at `location` with their ids: code's and the file's from the location's order with the saved draft
 * published (`placed`: those do not depend on the draft), then the editor's draft's, unsaved edits included, with
 * the ids the server would give them (slot-order.ts `slotIds`): its `id`, else its component's name, `#2`, `#3`... for
 * the later slots of a component without one, counted after code's and the file's.
 */
export function locationIds(
  document: PlacementsDocument,
  location: string,
  placed: PlacementPreview[string] | undefined,
): LocationIds {
  const fixed = (placed ?? []).filter((slot) => slot.source !== 'draft');
  const counts = new Map<string, number>();
  for (const { id, component } of fixed) {
    // A derived id is the component's name, or it with `#n`: such a slot counts before the draft's of its component.
    const derived =
      id === component || (id.startsWith(`${component}#`) && /^\d+$/.test(id.slice(component.length + 1)));
    if (derived) counts.set(component, (counts.get(component) ?? 0) + 1);
  }
  const places = new Map(slotsAt(document, location).map((at, index) => [slotKey(at), index + 1]));
  const slots: PlacedSlotId[] = fixed.map((slot) => ({
    id: slot.id,
    name: slot.source === 'code' ? `code's ${slot.component}` : `the file's ${slot.component} (${slot.remote ?? ''})`,
    key: null,
    slot: null,
  }));
  for (const at of inDocumentOrder(document, location)) {
    const component = String(at.slot.component);
    let id: string;
    if (at.slot.id !== undefined) id = typeof at.slot.id === 'string' ? at.slot.id : JSON.stringify(at.slot.id);
    else {
      const count = (counts.get(component) ?? 0) + 1;
      counts.set(component, count);
      id = count === 1 ? component : `${component}#${count}`;
    }
    const key = slotKey(at);
    slots.push({ id, name: `${component} (${at.remote}) #${places.get(key) ?? '?'}`, key, slot: at.slot });
  }
  return { location, slots };
}

/** The id the draft's slot `at` has at its location (given or derived). */
export function idOf(ids: LocationIds, at: DraftSlotAt): string {
  return ids.slots.find((slot) => slot.key === slotKey(at))?.id ?? String(at.slot.component);
}

/** The slots `at` may be placed right before or after: every other slot of the location, once per id. */
export function targetChoices(ids: LocationIds, at: DraftSlotAt): PlacedSlotId[] {
  const own = idOf(ids, at);
  const seen = new Set<string>([own]);
  return ids.slots.filter((slot) => {
    if (slot.key === slotKey(at) || seen.has(slot.id)) return false;
    seen.add(slot.id);
    return true;
  });
}

/**
 * What the server's check would say of `at`'s id, `before` and `after` (shared/slot-placement.ts checkPlacement and
 * slot-order.ts): an id of the id pattern and held by no other slot of the location, targets that are slots of it
 * (not the slot itself), not both the same, and no cycle of before/after among the draft's slots. Said in the
 * editor's words, at the field that mends it.
 */
export function orderFieldProblems(ids: LocationIds, at: DraftSlotAt): OrderFieldProblems {
  const { slot } = at;
  const own = idOf(ids, at);
  const key = slotKey(at);
  let id: string | null = null;
  if (slot.id !== undefined && !isSlotId(slot.id)) id = NOT_AN_ID;
  else {
    const other = ids.slots.find((placed) => placed.id === own && placed.key !== key);
    if (other !== undefined) {
      id =
        slot.id === undefined
          ? `Its id is "${own}", from its component, and so is that of ${other.name}: give this slot an id of its own.`
          : `The id "${own}" is also that of ${other.name}: give this slot another id.`;
    }
  }
  const target = (relation: 'before' | 'after'): string | null => {
    const value = slot[relation];
    if (value === undefined) return null;
    if (!isSlotId(value)) return NOT_AN_ID;
    if (value === own) return `It names this slot itself: choose another slot of ${ids.location}, or none.`;
    if (!ids.slots.some((placed) => placed.id === value)) {
      return `No slot at ${ids.location} has the id "${value}": choose one of its slots, or none.`;
    }
    if (relation === 'after' && slot.before === value) return `"before" and "after" both name "${value}": keep one.`;
    const cycle = cycleThrough(ids, relation === 'before' ? [own, value] : [value, own]);
    return cycle === null
      ? null
      : `${cycle.map((name) => `"${name}"`).join(' before ')}: "before" and "after" make a cycle, which no order ` +
          'fits. Choose another slot, or none.';
  };
  return { id, before: target('before'), after: target('after') };
}

/**
 * The cycle through the edge `first` before `second` (both ids), as the names in order back to `first`, or null: the
 * edges are the draft's slots' `before` and `after` (code's and the file's are not known here).
 */
function cycleThrough(ids: LocationIds, [first, second]: [string, string]): string[] | null {
  const next = new Map<string, Set<string>>();
  const edge = (from: string, to: string) => next.set(from, (next.get(from) ?? new Set()).add(to));
  for (const { id, slot } of ids.slots) {
    if (isSlotId(slot?.before)) edge(id, slot.before);
    // Both the same is refused before any order (the after field says so), not a cycle of the slot and its target.
    if (isSlotId(slot?.after) && slot.after !== slot.before) edge(slot.after, id);
  }
  // The shortest way from `second` back to `first`, if any.
  const cameFrom = new Map<string, string>([[second, second]]);
  const queue = [second];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    if (at === first) {
      const back = [first];
      for (let step = first; step !== second; back.push(step)) step = cameFrom.get(step)!;
      return [first, ...back.reverse()];
    }
    for (const to of next.get(at) ?? []) {
      if (cameFrom.has(to)) continue;
      cameFrom.set(to, at);
      queue.push(to);
    }
  }
  return null;
}

/** The draft's slots at `location`, in document order (remote entries in order, then each list), as the server reads them. */
function inDocumentOrder(document: PlacementsDocument, location: string): DraftSlotAt[] {
  const remotes: unknown = isPlainObject(document) ? document.remotes : undefined;
  const found: DraftSlotAt[] = [];
  for (const entry of Array.isArray(remotes) ? remotes : []) {
    if (!isPlainObject(entry) || typeof entry.name !== 'string' || !isPlainObject(entry.slots)) continue;
    const items: unknown = entry.slots[location];
    if (!Array.isArray(items)) continue;
    items.forEach((slot: unknown, index) => {
      if (isPlainObject(slot)) found.push({ remote: entry.name as string, location, index, slot: slot as DraftSlot });
    });
  }
  return found;
}
