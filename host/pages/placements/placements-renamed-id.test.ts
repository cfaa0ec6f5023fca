import type { PlacementPreview, PlacementsDocument } from '../../../shared';
import { slotsAt, withKey, type DraftSlot } from './placements-draft';
import { changeSlotFollowingId } from './placements-renamed-id';
import { locationIds } from './placements-slot-ids';

const LOCATION = 'dashboard-after-cards';
/** Code places Welcome at the location. */
const PLACED: PlacementPreview[string] = [{ id: 'Welcome', component: 'Welcome', remote: null, source: 'code' }];

/** Two remotes' slots at the location; team_news's Ticker names `promo` in both its before and after. */
function documentOf(...marketing: DraftSlot[]): PlacementsDocument {
  return {
    remotes: [
      { name: 'team_marketing', slots: { [LOCATION]: marketing } },
      {
        name: 'team_news',
        slots: {
          [LOCATION]: [
            { component: 'Ticker', before: 'promo' },
            { component: 'Note', after: 'promo' },
          ],
        },
      },
    ],
  };
}

/** The document after the id of team_marketing's slot at `index` is typed as `id`, each keystroke in turn. */
function typeId(document: PlacementsDocument, index: number, ...typed: string[]): PlacementsDocument {
  return typed.reduce((current, id) => {
    const at = slotsAt(current, LOCATION).find((slot) => slot.remote === 'team_marketing' && slot.index === index)!;
    return changeSlotFollowingId(current, at, withKey('id', id || undefined), locationIds(current, LOCATION, PLACED));
  }, document);
}

const targetsOf = (document: PlacementsDocument) =>
  slotsAt(document, LOCATION).map((at) => [at.slot.component, at.slot.before ?? null, at.slot.after ?? null]);

describe('renaming a slot in the placements editor', () => {
  it('takes along the before and after that named it, in every remote’s slots at the location', () => {
    const renamed = typeId(documentOf({ component: 'Banner', id: 'promo' }), 0, 'promo-', 'promo-2');
    expect(targetsOf(renamed)).toEqual([
      ['Banner', null, null],
      ['Ticker', 'promo-2', null],
      ['Note', null, 'promo-2'],
    ]);
  });

  it('never takes along what names another slot, nor follows a derived id or an id cleared', () => {
    // Typed through "Welcome" (code's slot's id): from then on the references stay where they were.
    const throughTaken = typeId(documentOf({ component: 'Banner', id: 'promo' }), 0, 'Welcome', 'Welcomer');
    expect(targetsOf(throughTaken).slice(1)).toEqual([
      ['Ticker', 'promo', null],
      ['Note', null, 'promo'],
    ]);
    // Two slots held "promo": which one a reference meant is not known.
    const shared = typeId(documentOf({ component: 'Banner', id: 'promo' }, { component: 'Ad', id: 'promo' }), 0, 'x');
    expect(targetsOf(shared).slice(2)).toEqual([
      ['Ticker', 'promo', null],
      ['Note', null, 'promo'],
    ]);
    // A slot without an id is "Banner" by derivation; cleared, an id goes back to one.
    const derived = typeId(documentOf({ component: 'Banner' }), 0, 'promo-3');
    expect(targetsOf(derived).slice(1)).toEqual([
      ['Ticker', 'promo', null],
      ['Note', null, 'promo'],
    ]);
    const cleared = typeId(documentOf({ component: 'Banner', id: 'promo' }), 0, '');
    expect(targetsOf(cleared).slice(1)).toEqual([
      ['Ticker', 'promo', null],
      ['Note', null, 'promo'],
    ]);
  });
});
