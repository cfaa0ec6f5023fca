import { DEFAULT_SLOT_PRIORITY, isPlainObject, type JsonValue, type PlacementsDocument } from '../../../shared';
import type { DraftSlot, DraftSlotAt } from '../../../shared/placements-listing';

// How the editor lists a location's slots is the server's too (a refusal numbers its problems so): shared.
export { priorityOf, slotsAt, type DraftSlot, type DraftSlotAt } from '../../../shared/placements-listing';

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

/**
 * A slot's priority as its box shows it: the number (50 when none is given), else what the document writes, as JSON:
 * `"7"` for a priority written as text, which must not read as 50 (what the list orders it by) without a word.
 */
export function priorityText(slot: DraftSlot): string {
  const { priority } = slot;
  if (priority === undefined) return String(DEFAULT_SLOT_PRIORITY);
  return typeof priority === 'number' ? String(priority) : JSON.stringify(priority);
}

/**
 * Why the server refuses the priority the document gives (checkPlacement in shared/slot-placement.ts: a safe
 * integer), or null. The draft is saved with it (a problem of its slot, stopping a publish), as the server saves it.
 */
export function priorityProblem(slot: DraftSlot): string | null {
  const { priority } = slot;
  if (priority === undefined || (typeof priority === 'number' && Number.isSafeInteger(priority))) return null;
  const number = typeof priority === 'string' ? priorityFromText(priority) : null;
  return (
    `The draft gives ${JSON.stringify(priority)}, ${typeof priority === 'string' ? 'text' : 'not a whole number'}, ` +
    'where the server takes a whole number only: a publish is refused until it is one. ' +
    (typeof number === 'number' ? `Type it as a number: ${number}` : 'Type one, such as 10') +
    ' (empty: 50).'
  );
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

/** A change of a slot that sets `key` to `value` (undefined: leaves the key out), keeping the others as written. */
export function withKey(key: string, value: JsonValue | undefined): (slot: DraftSlot) => DraftSlot {
  return (slot) => {
    const { [key]: _old, ...rest } = slot;
    return value === undefined ? rest : { ...rest, [key]: value };
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
