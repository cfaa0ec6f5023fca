import type { PlacementsDocument } from '../../../shared';
import { addSlot, asDocument, changeSlot, priorityFromText, slotsAt } from './placements-draft';

const DOCUMENT: PlacementsDocument = {
  remotes: [
    {
      name: 'team_billing',
      slots: {
        'dashboard-after-cards': [{ component: 'InvoiceBanner', priority: 60 }, { component: 'InvoiceNote' }],
      },
    },
    { name: 'team_news', slots: { 'dashboard-after-cards': [{ component: 'NewsTicker', priority: 10 }] } },
  ],
  locations: { 'dashboard-after-cards': ['team_billing', 'team_news'] },
};

describe('the draft as the editor reads and changes it', () => {
  it('lists a location’s slots by priority (50 when none), equal ones in document order, with where each is', () => {
    expect(
      slotsAt(DOCUMENT, 'dashboard-after-cards').map(({ remote, index, slot }) => [remote, index, slot.component]),
    ).toEqual([
      ['team_news', 0, 'NewsTicker'],
      ['team_billing', 1, 'InvoiceNote'],
      ['team_billing', 0, 'InvoiceBanner'],
    ]);
    expect(slotsAt(DOCUMENT, 'header-banner')).toEqual([]);
  });

  it('changes one slot, and removes a slot, its emptied list and its emptied entry', () => {
    const at = { remote: 'team_billing', location: 'dashboard-after-cards', index: 1 };
    const moved = changeSlot(DOCUMENT, at, (slot) => ({ ...slot, priority: 5 }));
    expect(moved.remotes?.[0]?.slots?.['dashboard-after-cards']?.[1]).toEqual({
      component: 'InvoiceNote',
      priority: 5,
    });
    expect(DOCUMENT.remotes?.[0]?.slots?.['dashboard-after-cards']?.[1]).toEqual({ component: 'InvoiceNote' });

    const news = { remote: 'team_news', location: 'dashboard-after-cards', index: 0 };
    const withoutNews = changeSlot(DOCUMENT, news, () => null);
    expect(withoutNews.remotes?.map((entry) => entry.name)).toEqual(['team_billing']);
    expect(withoutNews.locations).toEqual(DOCUMENT.locations);

    // An entry that also places form slots (which this page does not edit) keeps them when its last slot goes.
    const forms = { notes: [{ component: 'SlugPreview', props: { source: 'title', target: 'slug' } }] };
    const withForms: PlacementsDocument = { remotes: [{ ...DOCUMENT.remotes![1]!, forms }] };
    expect(changeSlot(withForms, news, () => null).remotes).toEqual([{ name: 'team_news', slots: {}, forms }]);
  });

  it('adds a slot to its remote’s entry, or a new entry', () => {
    const added = addSlot(
      addSlot(DOCUMENT, 'team_news', 'header-banner', 'NewsTicker'),
      'team_help',
      'header-banner',
      'Help',
    );
    expect(added.remotes?.[1]?.slots?.['header-banner']).toEqual([{ component: 'NewsTicker', props: {} }]);
    expect(added.remotes?.[2]).toEqual({
      name: 'team_help',
      slots: { 'header-banner': [{ component: 'Help', props: {} }] },
    });
  });

  it('takes a whole number typed as the server takes a priority: any safe integer, however many digits', () => {
    expect(priorityFromText(' ')).toBeUndefined();
    expect(priorityFromText('-5')).toBe(-5);
    expect(priorityFromText('10000000000')).toBe(10_000_000_000);
    expect(priorityFromText(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(priorityFromText(`-${Number.MAX_SAFE_INTEGER}`)).toBe(-Number.MAX_SAFE_INTEGER);
    // Past 2^53 JSON would send another number than the one typed; the server refuses it too.
    expect(priorityFromText('9007199254740992')).toBeNull();
    // Not whole numbers written out in digits (yet).
    for (const text of ['-', '1.5', '1e3', '+3', '0x10', 'ten']) expect(priorityFromText(text)).toBeNull();
  });

  it('reads a draft of another shape as an empty document', () => {
    expect(asDocument([1, 2])).toEqual({});
    expect(slotsAt(asDocument('text'), 'header-banner')).toEqual([]);
  });
});
