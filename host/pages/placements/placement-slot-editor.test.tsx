/**
 * A slot's card on the placements page: told apart from the others of its component (its heading and the names of
 * its controls), its id, `before` and `after` edited and checked as the server checks them, a rule at a public
 * location shown with what the server does with it, and a priority the document writes as text.
 */
import '../../../testing/host/router-globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  OPERATOR_ROLE,
  PLACEMENTS_PAGE_PATH,
  UNKNOWN_RULE_NAME,
  type PlacementComponentsPayload,
  type PlacementPreview,
  type PlacementsDocument,
  type PlacementsPayload,
} from '../../../shared';
import { createFakeApi, type FakeApi, type FakeRoute } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';

const LOCATION = 'dashboard-after-cards';
const PUBLIC = 'header-banner';

const COMPONENTS: PlacementComponentsPayload = {
  remotes: [
    {
      name: 'team_news',
      components: [
        { name: 'Notice', schema: null, form: false },
        { name: 'Welcome', schema: null, form: false },
      ],
    },
  ],
};

/** Code places ShortcutLinks at LOCATION: a slot the draft's may be placed before or after. */
const PREVIEW: PlacementPreview = {
  [LOCATION]: [{ id: 'ShortcutLinks', component: 'ShortcutLinks', remote: null, source: 'code' }],
};

function overview(document: PlacementsDocument): PlacementsPayload {
  return {
    draft: { document: document as never, updatedBy: 'admin', updatedAt: '2026-11-23T10:00:00.000Z' },
    problems: [],
    preview: PREVIEW,
    published: null,
  };
}

function api(document: PlacementsDocument, routes: Record<string, FakeRoute> = {}): FakeApi {
  return createFakeApi({
    'GET /me': { body: demoMe([OPERATOR_ROLE]) },
    'GET /slots': { body: { slots: {} } },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/placements': { body: overview(document) },
    'GET /api/placements/components': { body: COMPONENTS },
    'GET /api/placements/diff': { body: { revision: 0, changes: [] } },
    'GET /api/placements/revisions': { body: { revisions: [], inForce: 0 } },
    'PUT /api/placements/draft': (request) => ({
      body: overview((request.body as { document: PlacementsDocument }).document),
    }),
    ...routes,
  });
}

async function section(location = LOCATION): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name: location, level: 2 });
  return heading.closest('section') as HTMLElement;
}

/** The document the last save sent: the slots of team_news at `location`. */
function savedSlots(fake: FakeApi, location = LOCATION): unknown {
  const saved = fake.requests.filter((request) => request.method === 'PUT').at(-1)?.body as {
    document: PlacementsDocument;
  };
  return saved.document.remotes?.[0]?.slots?.[location];
}

async function save(): Promise<void> {
  fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
  await screen.findByText(/^Draft saved/);
}

describe('cards of the same component', () => {
  it('are told apart by their headings and by the names of their controls, unique on the page', async () => {
    renderAppAt(
      api({
        remotes: [
          {
            name: 'team_news',
            slots: {
              [LOCATION]: [
                { component: 'Notice', props: { title: 'Due this week' } },
                { component: 'Notice', id: 'late', props: {} },
              ],
              [PUBLIC]: [{ component: 'Notice' }],
            },
          },
        ],
      }),
      PLACEMENTS_PAGE_PATH,
    );
    const cards = (await section()).querySelectorAll('[data-placement-slot]');
    expect([...cards].map((card) => card.querySelector('h3')?.textContent)).toEqual([
      'Notice (team_news) #1, “Due this week”',
      'Notice (team_news) #2, id "late"',
    ]);
    expect(screen.getByLabelText(`Priority of Notice (team_news) #2 at ${LOCATION}`));
    expect(screen.getByRole('button', { name: `Remove Notice (team_news) #1 at ${LOCATION}` }));
    // The same component first at another location: its controls are named apart by where they are.
    expect(screen.getByLabelText(`Priority of Notice (team_news) #1 at ${PUBLIC}`));
    const names = [...document.querySelectorAll('[data-placement-slot] :is(input, select, textarea, button)')].map(
      (control) =>
        control.tagName === 'BUTTON'
          ? (control.getAttribute('aria-label') ?? control.textContent)
          : document.querySelector(`label[for="${control.id}"]`)?.textContent,
    );
    expect(names.length).toBeGreaterThan(10);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('the id, before and after of a slot', () => {
  it('mends a duplicate id and a before naming no slot, choosing among the location’s slots, and saves them', async () => {
    const fake = api({
      remotes: [
        {
          name: 'team_news',
          slots: {
            [LOCATION]: [
              { component: 'Notice', id: 'promo', priority: 10 },
              { component: 'Welcome', id: 'promo', before: 'gone', priority: 20 },
            ],
          },
        },
      ],
    });
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const here = await section();
    const id = within(here).getByLabelText(`Id of Welcome (team_news) #2 at ${LOCATION}`);
    expect(id).toHaveProperty('value', 'promo');
    expect(id.getAttribute('aria-invalid')).toBe('true');
    expect(within(here).getByText('The id "promo" is also that of Notice (team_news) #1: give this slot another id.'));
    const before = within(here).getByLabelText(
      `Welcome (team_news) #2 at ${LOCATION} goes right before`,
    ) as HTMLSelectElement;
    // Shown as written, with the location's other slots (code's too) to choose from, or none.
    expect(before.value).toBe('gone');
    expect([...before.options].map((option) => option.textContent)).toEqual([
      'No slot: its priority places it',
      "ShortcutLinks — code's ShortcutLinks",
      'gone (as the draft writes it)',
    ]);
    expect(within(here).getByText(`No slot at ${LOCATION} has the id "gone": choose one of its slots, or none.`));

    // Text that is no id stays in the box, out of the draft: a save is refused with the focus on it.
    fireEvent.change(id, { target: { value: 'pro mo' } });
    expect(within(here).getByText(/^Not a slot id: /));
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText(/^Refused: Not saved: a box of the editor holds what the draft cannot take yet/);
    expect(document.activeElement).toBe(id);

    fireEvent.change(id, { target: { value: 'welcome' } });
    expect(id.getAttribute('aria-invalid')).toBe('false');
    // Fixed, the box no longer holds the save back: the refusal that blamed it goes.
    await waitFor(() =>
      expect(
        screen.queryByText(/^Refused: Not saved: a box of the editor holds what the draft cannot take/),
      ).toBeNull(),
    );
    // Its own id is no choice; the other slots' are, the draft's by their cards.
    expect([...before.options].map((option) => option.value)).toEqual(['', 'ShortcutLinks', 'promo', 'gone']);
    fireEvent.change(before, { target: { value: 'promo' } });
    expect(before.getAttribute('aria-invalid')).toBe('false');
    fireEvent.change(within(here).getByLabelText(`Notice (team_news) #1 at ${LOCATION} goes right after`), {
      target: { value: 'ShortcutLinks' },
    });
    await save();
    expect(savedSlots(fake)).toEqual([
      { component: 'Notice', id: 'promo', priority: 10, after: 'ShortcutLinks' },
      { component: 'Welcome', id: 'welcome', before: 'promo', priority: 20 },
    ]);

    // None again: the key goes.
    fireEvent.change(before, { target: { value: '' } });
    await save();
    expect(savedSlots(fake)).toEqual([
      { component: 'Notice', id: 'promo', priority: 10, after: 'ShortcutLinks' },
      { component: 'Welcome', id: 'welcome', priority: 20 },
    ]);
  });

  it('says a cycle at the fields that make it', async () => {
    renderAppAt(
      api({
        remotes: [
          {
            name: 'team_news',
            slots: {
              [LOCATION]: [
                { component: 'Notice', before: 'Welcome' },
                { component: 'Welcome', before: 'Notice' },
              ],
            },
          },
        ],
      }),
      PLACEMENTS_PAGE_PATH,
    );
    const here = await section();
    expect(within(here).getByText(/^"Notice" before "Welcome" before "Notice": "before" and "after" make a cycle/));
    const before = within(here).getByLabelText(`Welcome (team_news) #2 at ${LOCATION} goes right before`);
    expect(before.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(before, { target: { value: '' } });
    expect(within(here).queryByText(/make a cycle/)).toBeNull();
  });
});

describe('a rule at a public location', () => {
  it('is shown with what the server does with it, and can be removed; none is offered there', async () => {
    const fake = api({
      remotes: [
        {
          name: 'team_news',
          slots: { [PUBLIC]: [{ component: 'Notice', visibleWhen: { flags: ['beta'] } }, { component: 'Welcome' }] },
        },
      ],
    });
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const here = await section(PUBLIC);
    const [ruled, plain] = [...here.querySelectorAll<HTMLElement>('[data-placement-slot]')];
    expect(within(ruled!).getByText('{"flags":["beta"]}'));
    expect(within(ruled!).getByText(/^A public location takes no rule: GET \/slots sends one cached answer/));
    // No box to write one, at either card.
    expect(within(here).queryByLabelText(/^Shown when rule of/)).toBeNull();
    expect(plain!.querySelector('[data-placement-public-rule]')).toBeNull();

    fireEvent.click(
      within(ruled!).getByRole('button', { name: `Remove the Shown when rule of Notice (team_news) #1 at ${PUBLIC}` }),
    );
    expect(ruled!.querySelector('[data-placement-public-rule]')).toBeNull();
    expect(document.activeElement).toBe(within(ruled!).getByRole('heading', { level: 3 }));
    await save();
    expect(savedSlots(fake, PUBLIC)).toEqual([{ component: 'Notice' }, { component: 'Welcome' }]);
  });
});

describe('a priority the document writes as text', () => {
  it('is shown as written with why the server refuses it, saved as it is, and mended by typing a number', async () => {
    const fake = api({
      remotes: [{ name: 'team_news', slots: { [LOCATION]: [{ component: 'Notice', priority: '7' }] } }],
    });
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const here = await section();
    const priority = within(here).getByLabelText(`Priority of Notice (team_news) #1 at ${LOCATION}`);
    expect(priority).toHaveProperty('value', '"7"');
    expect(priority.getAttribute('aria-invalid')).toBe('true');
    expect(
      within(here).getByText(
        'The draft gives "7", text, where the server takes a whole number only: a publish is refused until it is ' +
          'one. Type it as a number: 7 (empty: 50).',
      ),
    );
    // The draft holds it as the server does (a problem of its slot): a save is not refused for it.
    await save();
    expect(savedSlots(fake)).toEqual([{ component: 'Notice', priority: '7' }]);

    fireEvent.change(priority, { target: { value: '7' } });
    await waitFor(() => expect(priority.getAttribute('aria-invalid')).toBe('false'));
    await save();
    expect(savedSlots(fake)).toEqual([{ component: 'Notice', priority: 7 }]);
  });
});

describe('a rule naming a tenant that does not exist', () => {
  /** The draft check of the server: a blocking problem for a rule naming "acmee", as rule-names-check.ts words it. */
  const checked = (document: PlacementsDocument): PlacementsPayload => {
    const slots = document.remotes?.[0]?.slots?.[LOCATION] ?? [];
    const problems = (Array.isArray(slots) ? slots : [slots]).flatMap((slot, index) =>
      JSON.stringify(slot).includes('"acmee"')
        ? [
            {
              remote: 'team_news',
              location: LOCATION,
              index,
              component: 'Notice',
              kind: UNKNOWN_RULE_NAME,
              path: null,
              message: '"visibleWhen.tenants" names the unknown tenant "acmee"; tenants: acme, globex.',
              blocking: true,
            },
          ]
        : [],
    );
    return { ...overview(document), problems };
  };

  it('is said at the rule’s field, tied to its boxes, the card’s list linking there, until the rule is edited', async () => {
    const fake = api(
      { remotes: [{ name: 'team_news', slots: { [LOCATION]: [{ component: 'Notice' }] } }] },
      {
        'PUT /api/placements/draft': (request) => ({
          body: checked((request.body as { document: PlacementsDocument }).document),
        }),
      },
    );
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const here = await section();
    const card = here.querySelector<HTMLElement>('[data-placement-slot]')!;
    const name = `Notice (team_news) #1 at ${LOCATION}`;
    fireEvent.click(within(card).getByRole('button', { name: `Edit as JSON: Shown when rule of ${name}` }));
    const box = within(card).getByLabelText(`JSON of the Shown when rule of ${name}`);
    fireEvent.change(box, { target: { value: '{"tenants":["acmee"]}' } });
    // Left for Save, as a browser's click does: the rule's words follow the text at once (not after typing pauses).
    fireEvent.focusOut(box);
    await save();

    const said = 'The rule names the unknown tenant "acmee"; tenants: acme, globex.';
    expect(box.getAttribute('aria-invalid')).toBe('true');
    const describedBy = box.getAttribute('aria-describedby')!;
    expect(document.getElementById(describedBy)?.textContent).toBe(said);
    // Said once in the card, not beside "Shown to: tenant acmee." and not again in the list.
    expect(within(card).getAllByText(/names the unknown tenant "acmee"/)).toHaveLength(1);
    expect(within(card).queryByText(/^Shown to:/)).toBeNull();
    // Named by the field's legend: which card's rule, where (a links list read out of the page tells them apart).
    const link = within(card).getByRole('link', { name: `Shown when rule of ${name}` });
    expect(link.closest('li')?.textContent).toBe(`Shown when rule of ${name}: its problem is said at its field`);
    fireEvent.click(link);
    expect(document.activeElement).toBe(box);

    // In the builder, the box the name is in says it too.
    fireEvent.click(within(card).getByRole('button', { name: `Edit as JSON: Shown when rule of ${name}` }));
    // (Tenants alone: the test's server offers no tenants to choose from; with some, "Other tenants".)
    const others = within(card).getByLabelText(
      `Tenants of condition 1, separated by commas in the Shown when rule of ${name}`,
    );
    expect(others).toHaveProperty('value', 'acmee');
    expect(others.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(others.getAttribute('aria-describedby')!)?.textContent).toBe(said);

    // Edited: the field reads the rule again, and the list says the problem found before in full.
    fireEvent.change(others, { target: { value: 'acme' } });
    expect(others.getAttribute('aria-invalid')).toBe('false');
    expect(within(card).getByText(/^Shown to: /));
    expect(within(card).queryByRole('link', { name: `Shown when rule of ${name}` })).toBeNull();
    expect(within(card).getByText(/^"visibleWhen.tenants" names the unknown tenant "acmee"/));
  });
});
