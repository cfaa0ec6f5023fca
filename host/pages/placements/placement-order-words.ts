import { withKey, type DraftSlotAt } from './placements-draft';
import { orderFieldProblems, type LocationIds } from './placements-slot-ids';

/** Where a card is among its location's cards: its number (from 1) and how many there are. */
export interface CardPlace {
  place: number;
  count: number;
}

/**
 * What a location's live region says once a card's `before` or `after` is chosen (`target`, '' for none): where the
 * slot now goes, right before or after which slot whatever the priorities, or what stops it (the field's problem, as
 * the server would find it), or, none chosen, what places it now. The cards stay listed by priority, the order a
 * refused publish numbers them in, so nothing else says it: a priority typed moves the card, and that is said
 * (useAddedEntry's `moved`); this is said alike, in the same live region.
 */
export function orderChoiceWords(
  ids: LocationIds,
  at: DraftSlotAt,
  { place, count }: CardPlace,
  relation: 'before' | 'after',
  target: string,
): string {
  const what = `${String(at.slot.component)} (${at.remote})`;
  const where = ids.location;
  const chosen = { ...at, slot: withKey(relation, target === '' ? undefined : target)(at.slot) };
  const card = `its card stays #${place} of ${count}, listed by priority`;
  if (target === '') {
    const other = relation === 'before' ? 'after' : 'before';
    const kept = chosen.slot[other];
    return typeof kept === 'string'
      ? `${what} no longer goes right ${relation} a slot; it still goes right ${other} ${named(ids, kept)} at ${where}.`
      : `${what} no longer goes right ${relation} a slot at ${where}: its priority places it, #${place} of ${count}.`;
  }
  const problem = orderFieldProblems(ids, chosen)[relation];
  if (problem !== null) return `${what} cannot go right ${relation} ${named(ids, target)}: ${problem}`;
  return `${what} now goes right ${relation} ${named(ids, target)} at ${where}, whatever the priorities; ${card}.`;
}

/** A slot of the location by its id and how the editor names it: `"ShortcutLinks" (code's ShortcutLinks)`. */
function named(ids: LocationIds, id: string): string {
  const slot = ids.slots.find((placed) => placed.id === id);
  return slot === undefined ? `"${id}"` : `"${id}" (${slot.name})`;
}
