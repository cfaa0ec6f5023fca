/**
 * The read-only placements page of an operator of some tenants only, whose draft the server shows with the tenants
 * they do not belong to counted in its rules (`otherTenants`): each such rule in words, as the Locations page says
 * rules, with why it is not JSON to edit; a rule written whole stays JSON; the preview asks for the saved draft
 * rather than sending rules the server would not read as the draft's.
 */
import '../../../testing/host/router-globals';
import { screen, waitFor, within } from '@testing-library/react';
import { PLACEMENTS_PAGE_PATH, PLACEMENTS_PREVIEW_PATH, type PlacementsDocument } from '../../../shared';
import { placementsPageApi } from '../../../testing/host/placements-page-api';
import { renderAppAt } from '../../../testing/host/render-app';
import { COUNTED_RULE_NOTE, countedRuleWords } from './placements-counted-rule';

const LOCATION = 'dashboard-after-cards';

/** As the server shows it to tess: one rule counting 2 tenants, one whole, one that is no rule yet (counted too). */
const SHOWN_DRAFT: PlacementsDocument = {
  remotes: [
    {
      name: 'team_news',
      slots: {
        [LOCATION]: [
          {
            component: 'Welcome',
            priority: 10,
            visibleWhen: { $all: [{ roles: ['editor'] }, { tenants: ['acme'], otherTenants: 2 }] },
          },
          { component: 'NewsTicker', priority: 20, visibleWhen: { roles: ['operator'] } },
          { component: 'Notice', priority: 30, visibleWhen: { tenants: [], otherTenants: 1, roles: ['x'] } },
        ],
      },
    },
  ],
};

function api(document = SHOWN_DRAFT) {
  return placementsPageApi(
    document,
    {
      draft: { document: document as never, updatedBy: 'ops', updatedAt: '2026-11-23T10:00:00.000Z' },
      changesRefused: 'Only operators may do this: … and your account does not have it in Globex.',
    },
    {
      [`POST ${PLACEMENTS_PREVIEW_PATH}`]: {
        body: { context: { roles: [], permissions: [], tenant: 'acme', flags: [] }, problems: [], locations: {} },
      },
    },
  );
}

describe('a rule counting tenants hidden from the reader', () => {
  it('is shown in words on its card, a whole rule as JSON, and the preview is of the saved draft', async () => {
    const fake = api();
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const heading = await screen.findByRole('heading', { name: LOCATION, level: 2 });
    const section = heading.closest('section') as HTMLElement;
    const counted = [...section.querySelectorAll('[data-placement-counted-rule]')];
    expect(counted.map((rule) => rule.querySelector('p')?.textContent)).toEqual([
      `Shown when rule of Welcome (team_news) #1 at ${LOCATION}: (role editor and tenant acme or 2 tenants hidden ` +
        'from you)',
      `Shown when rule of Notice (team_news) #3 at ${LOCATION}: {"tenants":[],"otherTenants":1,"roles":["x"]}`,
    ]);
    expect(within(counted[0] as HTMLElement).getByText(COUNTED_RULE_NOTE)).toBeTruthy();
    // Only the rule written whole is in the builder (disabled, as the whole editor is on this page).
    const rules = within(section).getAllByRole('group', { name: /^Shown when rule of/ });
    expect(rules).toHaveLength(1);
    const operator = within(rules[0] as HTMLElement).getByRole('checkbox', {
      name: /^operator as one of the roles of condition 1 /,
    }) as HTMLInputElement;
    expect([operator.checked, operator.matches(':disabled')]).toEqual([true, true]);

    await waitFor(() => expect(fake.count('POST', PLACEMENTS_PREVIEW_PATH)).toBeGreaterThan(0));
    const asked = fake.requests.find((request) => request.method === 'POST')?.body as Record<string, unknown>;
    expect(asked).not.toHaveProperty('document');
    expect(asked).toMatchObject({ location: LOCATION, context: { tenant: 'acme' } });
  });

  it('is said as the Locations page says rules; a rule written whole is not', () => {
    expect(countedRuleWords({ $not: { tenants: [], otherTenants: 1 } })).toBe('not 1 tenant hidden from you');
    expect(countedRuleWords({ tenants: ['acme', 'globex'] })).toBeNull();
    expect(countedRuleWords(undefined)).toBeNull();
  });
});

describe('a slot whose props the server hides (its rule shows it only in tenants the reader does not belong to)', () => {
  it('says so on its card in place of its props, and the preview is of the saved draft', async () => {
    const hidden: PlacementsDocument = {
      remotes: [
        {
          name: 'team_news',
          slots: {
            [LOCATION]: [
              { component: 'Welcome', priority: 10, visibleWhen: { $not: { tenants: ['acme'] } }, propsHidden: true },
              { component: 'NewsTicker', priority: 20, props: { title: 'Ours' }, visibleWhen: { roles: ['editor'] } },
            ],
          },
        },
      ],
    };
    const fake = api(hidden);
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const heading = await screen.findByRole('heading', { name: LOCATION, level: 2 });
    const section = heading.closest('section') as HTMLElement;
    const notes = [...section.querySelectorAll('[data-placement-props-hidden]')];
    expect(notes.map((note) => note.textContent)).toEqual([
      `The props of Welcome (team_news) #1 at ${LOCATION} are not shown: its rule shows it only in tenants you do ` +
        "not belong to, and they are those tenants' data.",
    ]);
    expect(notes[0]?.closest('li')?.querySelector('details.placements__props')).toBeNull();
    await waitFor(() => expect(fake.count('POST', PLACEMENTS_PREVIEW_PATH)).toBeGreaterThan(0));
    const asked = fake.requests.find((request) => request.method === 'POST')?.body as Record<string, unknown>;
    expect(asked).not.toHaveProperty('document');
  });
});
