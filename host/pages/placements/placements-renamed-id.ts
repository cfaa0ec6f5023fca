import { isPlainObject, type JsonValue, type PlacementsDocument } from '../../../shared';
import { changeSlot, type DraftSlot, type DraftSlotAt } from './placements-draft';
import { isSlotId, type LocationIds } from './placements-slot-ids';

/**
 * The document with the draft's slot `at` changed by `change` and, when that change gives the slot another id, the
 * `before` and `after` of the location's draft slots that named it naming it still: renaming a slot left them naming
 * an id no slot had. Followed only when both ids are given (a derived id, `Banner#2`, moves with its component's
 * others, so a slot naming it may mean another) and each names this slot alone at the location, code's and the
 * file's slots included (as an id is typed, its first letters may be another slot's id, whose references stay its).
 */
export function changeSlotFollowingId(
  document: PlacementsDocument,
  at: DraftSlotAt,
  change: (slot: DraftSlot) => DraftSlot | null,
  ids: LocationIds,
): PlacementsDocument {
  const next = changeSlot(document, at, change);
  const from = at.slot.id;
  const to = change(at.slot)?.id;
  if (!isSlotId(from) || !isSlotId(to) || from === to) return next;
  const holders = (id: string) => ids.slots.filter((slot) => slot.id === id).length;
  if (holders(from) !== 1 || holders(to) !== 0) return next;
  return {
    ...next,
    remotes: (next.remotes ?? []).map((entry) => {
      const items: unknown = entry.slots?.[at.location];
      const namesIt = (slot: unknown): slot is DraftSlot =>
        isPlainObject(slot) && (slot.before === from || slot.after === from);
      if (!Array.isArray(items) || !items.some(namesIt)) return entry;
      const renamed: JsonValue[] = items.map((slot: JsonValue) =>
        namesIt(slot)
          ? { ...slot, ...(slot.before === from ? { before: to } : {}), ...(slot.after === from ? { after: to } : {}) }
          : slot,
      );
      return { ...entry, slots: { ...entry.slots, [at.location]: renamed } };
    }),
  };
}
