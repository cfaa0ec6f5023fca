import { DEFAULT_SLOT_PRIORITY, isPlainObject, type JsonValue, type PlacementsDocument } from '../../shared';

/** A slot of the draft as the document writes it (component, props, placement keys). */
export type DraftSlot = Record<string, JsonValue>;

/** A slot of the draft where the document holds it: `remotes[name].slots[location][index]`. */
export interface DraftSlotAt {
  remote: string;
  location: string;
  index: number;
  slot: DraftSlot;
}

/** The draft as the editor reads it: whatever the server holds, seen as a document (an odd shape reads as empty). */
export function asDocument(value: JsonValue): PlacementsDocument {
  return isPlainObject(value) ? (value as PlacementsDocument) : {};
}

/** The slots the draft places at `location`, lower priority first, equal ones in document order (as served). */
export function slotsAt(document: PlacementsDocument, location: string): DraftSlotAt[] {
  const found: DraftSlotAt[] = [];
  for (const entry of document.remotes ?? []) {
    const items = entry.slots?.[location] ?? [];
    items.forEach((slot, index) => {
      if (isPlainObject(slot)) found.push({ remote: entry.name, location, index, slot: slot as DraftSlot });
    });
  }
  return found
    .map((item, order) => ({ item, order }))
    .sort((a, b) => priorityOf(a.item.slot) - priorityOf(b.item.slot) || a.order - b.order)
    .map(({ item }) => item);
}

export function priorityOf(slot: DraftSlot): number {
  return typeof slot.priority === 'number' ? slot.priority : DEFAULT_SLOT_PRIORITY;
}

/** The document with the slot at `at` changed by `change` (null removes it; an emptied list or entry goes too). */
export function changeSlot(
  document: PlacementsDocument,
  at: Pick<DraftSlotAt, 'remote' | 'location' | 'index'>,
  change: (slot: DraftSlot) => DraftSlot | null,
): PlacementsDocument {
  const remotes = (document.remotes ?? []).map((entry) => {
    const items = entry.slots?.[at.location];
    if (entry.name !== at.remote || items === undefined) return entry;
    const next = items.flatMap((slot, index) => {
      if (index !== at.index) return [slot];
      const changed = change(slot as DraftSlot);
      return changed === null ? [] : [changed];
    });
    const slots = { ...entry.slots };
    if (next.length === 0) delete slots[at.location];
    else slots[at.location] = next;
    return { ...entry, slots };
  });
  // An entry left without slots goes, unless it still places form slots (which this page does not edit).
  return {
    ...document,
    remotes: remotes.filter((entry) => Object.keys(entry.slots ?? {}).length > 0 || entry.forms !== undefined),
  };
}

/** The document with `component` of `remote` placed last at `location` (no props yet: its form says what it needs). */
export function addSlot(
  document: PlacementsDocument,
  remote: string,
  location: string,
  component: string,
): PlacementsDocument {
  const remotes = [...(document.remotes ?? [])];
  const at = remotes.findIndex((entry) => entry.name === remote);
  const slot: DraftSlot = { component, props: {} };
  if (at === -1) remotes.push({ name: remote, slots: { [location]: [slot] } });
  else {
    const entry = remotes[at]!;
    remotes[at] = { ...entry, slots: { ...entry.slots, [location]: [...(entry.slots?.[location] ?? []), slot] } };
  }
  return { ...document, remotes };
}

/** A slot's key in the editor: where the document holds it. */
export function slotKey(at: Pick<DraftSlotAt, 'remote' | 'location' | 'index'>): string {
  return `${at.remote}|${at.location}|${at.index}`;
}
