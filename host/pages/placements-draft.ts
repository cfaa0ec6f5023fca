import { isPlainObject, type JsonValue, type PlacementsDocument } from '../../shared';
import type { DraftSlot, DraftSlotAt } from '../../shared/placements-listing';

// How the editor lists a location's slots is the server's too (a refusal numbers its problems so): shared.
export { priorityOf, slotsAt, type DraftSlot, type DraftSlotAt } from '../../shared/placements-listing';

/** The draft as the editor reads it: whatever the server holds, seen as a document (an odd shape reads as empty). */
export function asDocument(value: JsonValue): PlacementsDocument {
  return isPlainObject(value) ? (value as PlacementsDocument) : {};
}

/**
 * A priority box's text as the draft takes it: undefined when empty (the default), the number when it is a whole
 * number the server takes (a safe integer, as checkPlacement in shared/slot-placement.ts requires), else null (not
 * one yet: a lone minus sign, a fraction, a number past 2^53 that JSON would round).
 */
export function priorityFromText(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const number = /^-?\d+$/.test(trimmed) ? Number(trimmed) : null;
  return number !== null && Number.isSafeInteger(number) ? number : null;
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
