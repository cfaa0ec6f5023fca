import { isPlainObject, type JsonValue, type PlacementProblem, type PlacementsDocument } from '../../shared';
import { formSlotsOf, slotsAt, type DraftSlot } from '../../shared/placements-listing';

/**
 * A refused publish's or rollback's problem as one line that says where it is (the editor, which shows each problem
 * under its slot's card, may not show that slot: a draft saved in another tab, a revision rolled back to). A slot is
 * named as the editor lists it: its place among the cards of its location (lower priority first, as the page
 * numbers them; not its index in the document), its card's title, and its id when the document gives one:
 * `dashboard-before-cards #2, InvoiceNote (team_billing): props.title is required (string)`. A form slot by its
 * place among the cards of "Form slots": `Form slots #1, SlugPreview (team_records), resource form "notes": ...`.
 */
export function placementProblemLine(problem: PlacementProblem, document: JsonValue | null): string {
  const what = `${problem.path === null ? '' : `${problem.path} `}${problem.message}`;
  const place = placeOf(problem, isPlainObject(document) ? (document as PlacementsDocument) : {});
  return place === '' ? what : `${place}: ${what}`;
}

function placeOf(problem: PlacementProblem, document: PlacementsDocument): string {
  const { remote, location, index, component } = problem;
  if (location === null || index === null) {
    // The document itself, a remote entry, or a slot of code or the file the draft causes a problem to.
    return [remote, location, component].filter((part) => part !== null).join(', ');
  }
  const card = cardOf(problem, document);
  if (card === null) {
    // Not on the page (an item that is not an object): where the document holds it.
    const item = `${location}, item ${index + 1} of ${remote ?? 'its remote'}'s list`;
    return component === null ? item : `${item}, ${component}`;
  }
  const listedName = typeof card.slot.component === 'string' ? card.slot.component : 'a slot';
  const name = `${component ?? listedName}${remote === null ? '' : ` (${remote})`}`;
  if (card.form) return `Form slots #${card.place}, ${name}, ${location}`;
  const id = typeof card.slot.id === 'string' ? `, id "${card.slot.id}"` : '';
  return `${location} #${card.place}, ${name}${id}`;
}

/** The problem's slot as the editor lists it: its place (from 1) among the cards of its list, and the slot. */
function cardOf(
  problem: PlacementProblem,
  document: PlacementsDocument,
): { place: number; form: boolean; slot: DraftSlot } | null {
  const same = (at: { remote: string; index: number }) => at.remote === problem.remote && at.index === problem.index;
  const forms = formSlotsOf(document);
  const formPlace = forms.findIndex((at) => `resource form "${at.resource}"` === problem.location && same(at));
  if (formPlace >= 0) return { place: formPlace + 1, form: true, slot: forms[formPlace]!.slot };
  const slots = slotsAt(document, problem.location ?? '');
  const place = slots.findIndex(same);
  return place >= 0 ? { place: place + 1, form: false, slot: slots[place]!.slot } : null;
}
