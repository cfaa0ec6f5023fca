import type { PlacementProblem, PlacementsDocument } from '../../../shared';
import { unfinishedRulePart, unfinishedRuleSlots } from './placements-unfinished-rule';

const LOCATION = 'dashboard-after-cards';

/** The preview's problem of the slot at `index` of team_news's list there, in the server's words. */
function problemAt(index: number, message: string): PlacementProblem {
  return {
    remote: 'team_news',
    location: LOCATION,
    index,
    component: null,
    kind: 'invalid-document',
    path: null,
    message,
    blocking: true,
  };
}

describe('a rule still being built, in the builder’s words', () => {
  it('names the first part left to fill in, numbered as the builder numbers it, and what to do there', () => {
    expect(unfinishedRulePart({ roles: [] })).toBe('condition 1 names no role yet (tick one)');
    expect(unfinishedRulePart({ $not: { tenants: [] } })).toBe('condition 1 names no tenant yet (tick or type one)');
    expect(
      unfinishedRulePart({ $all: [{ roles: ['editor'] }, { $any: [{ flags: ['beta'] }, { permissions: [] }] }] }),
    ).toBe('condition 2.2 names no permission yet (tick one)');
    expect(unfinishedRulePart({ $all: [{ roles: ['editor'] }, { $any: [] }] })).toBe(
      'group 2 holds no condition yet (add one)',
    );
    expect(unfinishedRulePart({ $any: [] })).toBe('the rule holds no condition yet (add one)');
  });

  it('finds nothing to fill in in a whole rule, no rule, or a rule of another shape', () => {
    expect(unfinishedRulePart({ roles: ['editor'] })).toBeNull();
    expect(unfinishedRulePart(undefined)).toBeNull();
    expect(unfinishedRulePart({ roles: 'editor' })).toBeNull();
  });

  it('says a slot the preview could not read for its rule being built, named as its card is', () => {
    const document: PlacementsDocument = {
      remotes: [
        {
          name: 'team_news',
          slots: {
            [LOCATION]: [
              { component: 'Notice', props: {}, visibleWhen: { roles: [] } },
              { component: 'Banner', props: {}, priority: 10 },
              { component: 'Ticker', props: {}, visibleWhen: { roles: [] }, priority: '7' },
            ],
          },
        },
      ],
    };
    const rule = problemAt(
      0,
      'Slot "Notice": "visibleWhen.roles" must be a non-empty list of role names, got an empty list.',
    );
    // Refused for another part first: the server's words stay.
    const priority = problemAt(2, 'Slot "Ticker": "priority" must be a safe integer.');
    expect(unfinishedRuleSlots(document, [rule, priority])).toEqual([
      {
        problem: rule,
        location: LOCATION,
        words:
          'Notice (team_news) #2 is previewed once its Shown when rule is complete: condition 1 names no role yet (tick one).',
      },
    ]);
  });
});
