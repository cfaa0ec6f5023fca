import type { PlacementPreview, PlacementsDocument } from '../../../shared';
import { slotsAt, type DraftSlot } from './placements-draft';
import { locationIds, orderFieldProblems, targetChoices } from './placements-slot-ids';

const LOCATION = 'dashboard-after-cards';

/** Code places Welcome; the file places a Banner of team_marketing (its id derived: `Banner`). */
const PLACED: PlacementPreview[string] = [
  { id: 'Welcome', component: 'Welcome', remote: null, source: 'code' },
  { id: 'Banner', component: 'Banner', remote: 'team_marketing', source: 'file' },
  // The saved draft's own slots are the editor's to name, from the document as edited.
  { id: 'Stale', component: 'Banner', remote: 'team_marketing', source: 'draft' },
];

function documentOf(...slots: DraftSlot[]): PlacementsDocument {
  return { remotes: [{ name: 'team_marketing', slots: { [LOCATION]: slots } }] };
}

/** The problems of the draft's slot at `index` in the document's list. */
function problemsOf(document: PlacementsDocument, index: number) {
  const ids = locationIds(document, LOCATION, PLACED);
  const at = slotsAt(document, LOCATION).find((slot) => slot.index === index)!;
  return orderFieldProblems(ids, at);
}

describe('the ids of a location’s slots, as the server gives them', () => {
  it('derives a draft slot’s id from its component, counted after code’s and the file’s', () => {
    const document = documentOf({ component: 'Banner' }, { component: 'Banner', id: 'promo' }, { component: 'Banner' });
    const ids = locationIds(document, LOCATION, PLACED);
    expect(ids.slots.map((slot) => [slot.id, slot.name])).toEqual([
      ['Welcome', "code's Welcome"],
      ['Banner', "the file's Banner (team_marketing)"],
      ['Banner#2', 'Banner (team_marketing) #1'],
      ['promo', 'Banner (team_marketing) #2'],
      ['Banner#3', 'Banner (team_marketing) #3'],
    ]);
    // Every other slot once, never the slot itself.
    const second = slotsAt(document, LOCATION)[1]!;
    expect(targetChoices(ids, second).map((slot) => slot.id)).toEqual(['Welcome', 'Banner', 'Banner#2', 'Banner#3']);
    expect(problemsOf(document, 1)).toEqual({ id: null, before: null, after: null });
  });

  it('says an id another slot has, given or derived, at the id field', () => {
    expect(problemsOf(documentOf({ component: 'Notice', id: 'Welcome' }), 0).id).toBe(
      'The id "Welcome" is also that of code\'s Welcome: give this slot another id.',
    );
    const twice = documentOf({ component: 'Notice', id: 'promo' }, { component: 'Callout', id: 'promo' });
    expect(problemsOf(twice, 1).id).toBe(
      'The id "promo" is also that of Notice (team_marketing) #1: give this slot another id.',
    );
    // Derived: a slot of code holding a component's name as its id takes it from the draft's slot of that component.
    const derived = locationIds(documentOf({ component: 'Notice' }), LOCATION, [
      { id: 'Notice', component: 'Welcome', remote: null, source: 'code' },
    ]);
    const [notice] = slotsAt(documentOf({ component: 'Notice' }), LOCATION);
    expect(orderFieldProblems(derived, notice!).id).toBe(
      'Its id is "Notice", from its component, and so is that of code\'s Welcome: give this slot an id of its own.',
    );
    expect(problemsOf(documentOf({ component: 'Notice', id: 'no spaces' }), 0).id).toMatch(/^Not a slot id: /);
  });

  it('says a before or after that names no slot, the slot itself, or both the same', () => {
    expect(problemsOf(documentOf({ component: 'Notice', before: 'Gone' }), 0).before).toBe(
      `No slot at ${LOCATION} has the id "Gone": choose one of its slots, or none.`,
    );
    expect(problemsOf(documentOf({ component: 'Notice', after: 'Notice' }), 0).after).toBe(
      `It names this slot itself: choose another slot of ${LOCATION}, or none.`,
    );
    const both = problemsOf(documentOf({ component: 'Notice', before: 'Welcome', after: 'Welcome' }), 0);
    expect(both).toEqual({ id: null, before: null, after: '"before" and "after" both name "Welcome": keep one.' });
    expect(problemsOf(documentOf({ component: 'Notice', before: 'Welcome', after: 'Banner' }), 0)).toEqual({
      id: null,
      before: null,
      after: null,
    });
  });

  it('says a cycle of before and after at each field that makes it', () => {
    // A chain is no cycle.
    const document = documentOf(
      { component: 'Notice', id: 'A', before: 'B' },
      { component: 'Notice', id: 'B', before: 'C' },
      { component: 'Notice', id: 'C', after: 'Welcome' },
      { component: 'Notice', id: 'D', after: 'C' },
    );
    expect(problemsOf(document, 0).before).toBeNull();
    const cyclic = documentOf(
      { component: 'Notice', id: 'A', before: 'B' },
      { component: 'Notice', id: 'B', before: 'C' },
      { component: 'Notice', id: 'C', before: 'A' },
    );
    expect(problemsOf(cyclic, 0).before).toBe(
      '"A" before "B" before "C" before "A": "before" and "after" make a cycle, which no order fits. Choose another ' +
        'slot, or none.',
    );
    expect(problemsOf(cyclic, 2).before).toMatch(/^"C" before "A" before "B" before "C": /);
    // An after is the same edge the other way round.
    const pair = documentOf(
      { component: 'Notice', id: 'A', before: 'B' },
      { component: 'Notice', id: 'B', before: 'A' },
    );
    expect(problemsOf(pair, 1).before).toMatch(/^"B" before "A" before "B": /);
    const withAfter = documentOf(
      { component: 'Notice', id: 'A', after: 'B' },
      { component: 'Notice', id: 'B', after: 'A' },
    );
    expect(problemsOf(withAfter, 0).after).toMatch(/^"B" before "A" before "B": /);
  });
});
