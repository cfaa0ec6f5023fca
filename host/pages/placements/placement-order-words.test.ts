import type { PlacementPreview, PlacementsDocument } from '../../../shared';
import { orderChoiceWords } from './placement-order-words';
import { slotsAt, type DraftSlot } from './placements-draft';
import { locationIds } from './placements-slot-ids';

const LOCATION = 'dashboard-after-cards';

/** Code places Welcome there. */
const PLACED: PlacementPreview[string] = [{ id: 'Welcome', component: 'Welcome', remote: null, source: 'code' }];

/** What is said once the draft's card `number` (from 1, as listed) has its `relation` set to `target`. */
function said(slots: DraftSlot[], number: number, relation: 'before' | 'after', target: string): string {
  const document: PlacementsDocument = { remotes: [{ name: 'team_news', slots: { [LOCATION]: slots } }] };
  const cards = slotsAt(document, LOCATION);
  const ids = locationIds(document, LOCATION, PLACED);
  return orderChoiceWords(ids, cards[number - 1]!, { place: number, count: cards.length }, relation, target);
}

describe('what is said as a card’s "goes right before" or "after" is chosen', () => {
  it('says the slot it now goes next to, whatever the priorities, and that its card stays where it is listed', () => {
    const slots: DraftSlot[] = [{ component: 'Notice', priority: 10 }, { component: 'Banner' }];
    expect(said(slots, 2, 'before', 'Welcome')).toBe(
      'Banner (team_news) now goes right before "Welcome" (code\'s Welcome) at dashboard-after-cards, whatever the ' +
        'priorities; its card stays #2 of 2, listed by priority.',
    );
    expect(said(slots, 1, 'after', 'Banner')).toBe(
      'Notice (team_news) now goes right after "Banner" (Banner (team_news) #2) at dashboard-after-cards, whatever ' +
        'the priorities; its card stays #1 of 2, listed by priority.',
    );
  });

  it('says what stops the choice, as its field does, rather than a place it does not get', () => {
    const slots: DraftSlot[] = [{ component: 'Notice', before: 'Banner' }, { component: 'Banner' }];
    expect(said(slots, 2, 'before', 'Notice')).toBe(
      'Banner (team_news) cannot go right before "Notice" (Notice (team_news) #1): "Banner" before "Notice" before ' +
        '"Banner": "before" and "after" make a cycle, which no order fits. Choose another slot, or none.',
    );
    expect(said(slots, 1, 'after', 'Banner')).toBe(
      'Notice (team_news) cannot go right after "Banner" (Banner (team_news) #2): "before" and "after" both name ' +
        '"Banner": keep one.',
    );
  });

  it('says what places it once none is chosen: its priority, or the other of before and after', () => {
    expect(said([{ component: 'Notice', before: 'Welcome' }], 1, 'before', '')).toBe(
      'Notice (team_news) no longer goes right before a slot at dashboard-after-cards: its priority places it, #1 of 1.',
    );
    expect(
      said([{ component: 'Notice', before: 'Welcome', after: 'Banner' }, { component: 'Banner' }], 1, 'before', ''),
    ).toBe(
      'Notice (team_news) no longer goes right before a slot; it still goes right after "Banner" (Banner (team_news) ' +
        '#2) at dashboard-after-cards.',
    );
  });
});
