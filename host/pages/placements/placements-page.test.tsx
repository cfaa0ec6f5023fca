import '../../../testing/host/router-globals';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  API_CLIENT_MESSAGES,
  OPERATOR_ROLE,
  PLACEMENTS_PAGE_PATH,
  PLACEMENTS_PREVIEW_PATH,
  type PlacementComponentsPayload,
  type PlacementsDocument,
  type PlacementsPayload,
} from '../../../shared';
import {
  createFakeApi,
  proxyPage,
  UNAUTHENTICATED,
  type FakeApi,
  type FakeRoute,
} from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { UNSAVED_CHANGES_MESSAGE } from '../../hooks/unsaved-changes';
import { fakeModalDialogs } from '../../../testing/host/modal-dialogs';
import { refuseLeaving } from '../../../testing/host/leaving-refused';
import { instantInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';

const LOCATION = 'dashboard-after-cards';

const DRAFT: PlacementsDocument = {
  remotes: [
    {
      name: 'team_news',
      slots: {
        [LOCATION]: [
          { component: 'NewsTicker', priority: 10 },
          { component: 'Welcome', priority: 20, visibleWhen: { roles: ['editor'] } },
        ],
      },
    },
  ],
};

const COMPONENTS: PlacementComponentsPayload = {
  remotes: [
    {
      name: 'team_news',
      components: [
        { name: 'NewsTicker', schema: null, form: false },
        { name: 'Welcome', schema: null, form: false },
      ],
    },
  ],
};

function overview(document: PlacementsDocument = DRAFT): PlacementsPayload {
  return {
    draft: { document: document as never, updatedBy: 'admin', updatedAt: '2026-11-23T10:00:00.000Z' },
    problems: [],
    preview: {},
    published: null,
  };
}

function api(roles: string[], routes: Record<string, FakeRoute> = {}): FakeApi {
  return createFakeApi({
    'GET /me': { body: demoMe(roles) },
    'GET /slots': { body: { slots: {} } },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/placements': { body: overview() },
    'GET /api/placements/components': { body: COMPONENTS },
    'GET /api/placements/diff': { body: { revision: 0, changes: DRAFT_ADDS } },
    'GET /api/placements/revisions': { body: { revisions: [], inForce: 0 } },
    ...routes,
  });
}

/** What publishing DRAFT adds when nothing is published: its two slots. */
const DRAFT_ADDS = ['NewsTicker', 'Welcome'].map((id) => ({
  change: 'added',
  location: LOCATION,
  remote: 'team_news',
  id,
  before: null,
  after: {},
}));

/** Two revisions published: the second in force, a way back to the first. */
const REVISIONS = [2, 1].map((number) => ({
  number,
  action: 'publish',
  restored: null,
  publishedBy: 'admin',
  publishedAt: `2026-11-23T0${number}:00:00.000Z`,
}));

/** REVISIONS after a colleague rolled back to revision 1: revision 3, in force. */
const ROLLED_BACK = [
  { number: 3, action: 'rollback', restored: 1, publishedBy: 'ops', publishedAt: '2026-11-23T03:00:00.000Z' },
  ...REVISIONS,
];

function renderApp(fake: FakeApi) {
  return renderAppAt(fake, PLACEMENTS_PAGE_PATH);
}

/**
 * What the page asked the server to change, in order. The live preview's POST is a read, sent once the page has
 * been still for 300 ms: whether it comes before an assertion depends on the machine's speed, so it is left out.
 */
function changesAsked(fake: FakeApi): FakeApi['requests'] {
  return fake.requests.filter((request) => request.method !== 'GET' && request.path !== PLACEMENTS_PREVIEW_PATH);
}

/**
 * A control of a slot card of LOCATION, as labelled: `Priority of NewsTicker (team_news) #1 at dashboard-after-cards`
 * (the card's number among the location's, lower priority first; the location said to screen readers only).
 */
function card(field: string, component: string, place: number): string {
  return `${field} ${component} (team_news) #${place} at ${LOCATION}`;
}

fakeModalDialogs();

/** Publish from the toolbar, then confirm it in the app's dialog; returns what the dialog asked. */
async function publishConfirmed(): Promise<string> {
  fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
  const dialog = await screen.findByRole('dialog', { name: 'Publish the draft?' });
  const question = dialog.textContent ?? '';
  fireEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
  return question;
}

/**
 * A card's "Shown when" rule as JSON: its "Edit as JSON" toggle pressed (the builder is shown first), its box
 * returned.
 */
function jsonRuleBox(section: HTMLElement, component: string, place: number): HTMLTextAreaElement {
  const name = card('Shown when rule of', component, place);
  const toggle = within(section).getByRole('button', { name: `Edit as JSON: ${name}` });
  if (toggle.getAttribute('aria-pressed') !== 'true') fireEvent.click(toggle);
  return within(section).getByLabelText(`JSON of the ${name}`) as HTMLTextAreaElement;
}

/** Presses a button that asks in the app's dialog, and answers it; returns the dialog's description. */
async function pressAndAnswer(button: HTMLElement, title: string, confirm: boolean): Promise<string> {
  button.focus();
  fireEvent.click(button);
  const dialog = await screen.findByRole('dialog', { name: title });
  expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
  const described = document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent ?? '';
  fireEvent.click(within(dialog).getAllByRole('button')[confirm ? 0 : 1] as HTMLElement);
  expect((dialog as HTMLDialogElement).open).toBe(false);
  return described;
}

async function locationSection(): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name: LOCATION, level: 2 });
  return heading.closest('section') as HTMLElement;
}

describe('the placements page', () => {
  it('tells staff without the operator role that it is for operators', async () => {
    renderApp(api([]));
    await screen.findByRole('heading', { name: 'Operators only', level: 1 });
    expect(screen.getByText('Placements are for staff with the operator role. Ask an operator if you need a change.'));
  });

  it('shows an operator of this tenant only the draft and revisions, read only, and says why', async () => {
    const refusal = 'Only operators may do this: … and your account does not have it in Globex.';
    renderApp(api([OPERATOR_ROLE], { 'GET /api/placements': { body: { ...overview(), changesRefused: refusal } } }));
    const section = await locationSection();
    expect(document.querySelector('[data-placements-read-only]')?.textContent).toContain(refusal);
    expect(screen.queryByRole('button', { name: 'Save draft' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    // The editor is there to read: every control of it is disabled.
    const controls = within(section).getAllByRole('textbox');
    expect(controls.length).toBeGreaterThan(0);
    for (const control of controls) expect(control.matches(':disabled')).toBe(true);
    expect(screen.getByRole('link', { name: 'Export the published revision' })).toBeTruthy();
  });

  it('keeps each slot’s rule with its slot when a slot above it is removed', async () => {
    renderApp(api([OPERATOR_ROLE]));
    const section = await locationSection();
    const rules = () =>
      within(section)
        .getAllByLabelText(/^JSON of the Shown when/)
        .map((field) => (field as HTMLTextAreaElement).value);
    jsonRuleBox(section, 'NewsTicker', 1);
    // Each box is named after its slot, so a screen reader tells them apart.
    expect(jsonRuleBox(section, 'Welcome', 2)).toHaveProperty('value', '{"roles":["editor"]}');
    expect(rules()).toEqual(['', '{"roles":["editor"]}']);
    fireEvent.click(within(section).getByRole('button', { name: card('Remove', 'NewsTicker', 1) }));
    await waitFor(() => expect(rules()).toEqual(['{"roles":["editor"]}']));
    expect(within(section).getByLabelText(card('Priority of', 'Welcome', 1))).toHaveProperty('value', '20');
  });

  it('reads each slot’s rule back in words under its box, or says what the server will refuse in it', async () => {
    renderApp(api([OPERATOR_ROLE]));
    const section = await locationSection();
    const rule = jsonRuleBox(section, 'Welcome', 2);
    const hint = () => document.getElementById(rule.getAttribute('aria-describedby')!)!;
    expect(hint().textContent).toBe('Shown to: role editor.');
    fireEvent.change(rule, { target: { value: '{"roles": "editor"}' } });
    await waitFor(() =>
      expect(hint().textContent).toMatch(/^Shown when: "visibleWhen.roles" must be a non-empty list/),
    );
    expect(hint().className).toBe('field__error');
    fireEvent.change(rule, { target: { value: '' } });
    await waitFor(() => expect(hint().textContent).toBe('No rule: shown to everyone who sees the location.'));
  });

  it('moves the focus to the location’s heading after a Remove and says what was removed', async () => {
    renderApp(api([OPERATOR_ROLE]));
    const section = await locationSection();
    const remove = within(section).getByRole('button', { name: card('Remove', 'NewsTicker', 1) });
    remove.focus();
    fireEvent.click(remove);
    await waitFor(() => expect(section.querySelectorAll('li[data-placement-slot]')).toHaveLength(1));
    // Not on the next slot's Remove button (it took the removed one's place): a second Enter would remove it too.
    expect(document.activeElement).toBe(within(section).getByRole('heading', { name: LOCATION, level: 2 }));
    expect(
      within(section)
        .getAllByRole('status')
        .map((status) => status.textContent),
    ).toContain(`Removed NewsTicker (team_news) #1 from ${LOCATION}: 1 slot there in the draft.`);
  });

  it('asks before a navigation drops edits not saved into the draft, and not once they are saved', async () => {
    const { confirm, goToDashboard } = refuseLeaving();
    try {
      renderApp(
        api([OPERATOR_ROLE], {
          'PUT /api/placements/draft': (request) => ({
            body: overview((request.body as { document: PlacementsDocument }).document),
          }),
        }),
      );
      const section = await locationSection();
      fireEvent.change(within(section).getByLabelText(card('Priority of', 'NewsTicker', 1)), {
        target: { value: '70' },
      });
      goToDashboard();
      await waitFor(() => expect(confirm).toHaveBeenCalledWith(UNSAVED_CHANGES_MESSAGE));
      // Refused: the editor and its edit stay.
      expect(within(section).getByLabelText(card('Priority of', 'NewsTicker', 2))).toHaveProperty('value', '70');

      fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
      await screen.findByText('Draft saved: no problem.');
      confirm.mockClear();
      goToDashboard();
      await waitFor(() => expect(screen.queryByRole('heading', { name: 'Placements', level: 1 })).toBeNull());
      expect(confirm).not.toHaveBeenCalled();
    } finally {
      confirm.mockRestore();
    }
  });

  it('saves the draft as edited and shows each problem at its slot', async () => {
    const fake = api([OPERATOR_ROLE], {
      'PUT /api/placements/draft': (request) => ({
        body: {
          ...overview((request.body as { document: PlacementsDocument }).document),
          problems: [
            {
              remote: 'team_news',
              location: LOCATION,
              index: 1,
              component: 'Welcome',
              kind: 'remote-not-allowed',
              path: null,
              message: 'remote "team_news" may not fill "dashboard-after-cards"',
              blocking: true,
            },
          ],
        },
      }),
    });
    renderApp(fake);
    const section = await locationSection();
    const rule = jsonRuleBox(section, 'NewsTicker', 1);
    fireEvent.change(rule, { target: { value: '{"tenants": ' } });
    // Said once the box is left (or typing pauses), not at each key: placements-rule-field.test.tsx.
    fireEvent.focusOut(rule);
    expect(within(section).getByText('Not JSON yet, e.g. {"roles": ["editor"]}.'));
    fireEvent.change(rule, { target: { value: '{"tenants": ["acme"]}' } });
    fireEvent.change(within(section).getByLabelText(card('Priority of', 'NewsTicker', 1)), { target: { value: '70' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved with 1 problem.');

    const saved = fake.requests.find((request) => request.method === 'PUT')?.body as { document: PlacementsDocument };
    expect(saved.document.remotes?.[0]?.slots?.[LOCATION]).toEqual([
      { component: 'NewsTicker', priority: 70, visibleWhen: { tenants: ['acme'] } },
      { component: 'Welcome', priority: 20, visibleWhen: { roles: ['editor'] } },
    ]);
    // NewsTicker now comes after Welcome (priority 70 against 20); the problem is shown at Welcome only.
    const slots = section.querySelectorAll('[data-placement-slot]');
    expect([...slots].map((slot) => slot.getAttribute('data-placement-slot'))).toEqual([
      'team_news:Welcome',
      'team_news:NewsTicker',
    ]);
    expect(slots[0]!.querySelector('[data-placement-problems]')?.textContent).toMatch(/may not fill/);
    expect(slots[1]!.querySelector('[data-placement-problems]')).toBeNull();
  });
});

describe('a location an upgrade renamed', () => {
  const OLD = 'dashboard-after-old-cards';
  const ORPHANED: PlacementsDocument = {
    remotes: [{ name: 'team_news', slots: { [OLD]: [{ component: 'NewsTicker', props: { limit: 3 } }] } }],
  };
  const PROBLEM = {
    remote: 'team_news',
    location: OLD,
    index: 0,
    component: 'NewsTicker',
    kind: 'invalid-document' as const,
    path: null,
    message: `slots["${OLD}"][0] (NewsTicker) is at "${OLD}", which is no location of this version`,
    blocking: true,
  };

  it('lists it apart, shows its slots with their problems, and lets them be removed', async () => {
    const fake = api([OPERATOR_ROLE], {
      'GET /api/placements': { body: { ...overview(ORPHANED), problems: [PROBLEM] } },
      'PUT /api/placements/draft': (request) => ({
        body: overview((request.body as { document: PlacementsDocument }).document),
      }),
    });
    renderAppAt(fake, `${PLACEMENTS_PAGE_PATH}?location=${OLD}`);
    const heading = await screen.findByRole('heading', { name: OLD, level: 2 });
    const section = heading.closest('section') as HTMLElement;
    expect(section.hidden).toBe(false);
    expect(within(section).getByText(/This version of the product has no location named/)).toBeTruthy();
    // Nothing can be added there; the slot's card says what is wrong with it.
    expect(within(section).queryByRole('button', { name: 'Add' })).toBeNull();
    const slot = section.querySelector('[data-placement-slot="team_news:NewsTicker"]');
    expect(slot?.querySelector('[data-placement-problems]')?.textContent).toContain('no location of this version');
    const map = screen.getByRole('navigation', { name: 'Locations' });
    const gone = within(map).getByRole('heading', { name: 'No longer locations (renamed or removed by an upgrade)' });
    expect(gone.parentElement?.textContent).toContain(`${OLD} (1 in the draft, 1 problem)`);

    fireEvent.click(within(section).getByRole('button', { name: `Remove NewsTicker (team_news) #1 at ${OLD}` }));
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved: no problem.');
    const saved = fake.requests.find((request) => request.method === 'PUT')?.body as { document: PlacementsDocument };
    expect(saved.document.remotes?.[0]?.slots?.[OLD] ?? []).toEqual([]);
  });
});

describe('one location at a time', () => {
  const shownLocations = () =>
    [...document.querySelectorAll<HTMLElement>('[data-placements-location]')]
      .filter((section) => !section.hidden)
      .map((section) => section.dataset.placementsLocation);

  it('shows the first location the draft places a slot at, the others picked from the map', async () => {
    renderApp(api([OPERATOR_ROLE]));
    await locationSection();
    expect(shownLocations()).toEqual([LOCATION]);
    const map = screen.getByRole('navigation', { name: 'Locations' });
    expect(within(map).getByRole('link', { name: LOCATION }).getAttribute('aria-current')).toBe('page');
    expect(within(map).getByRole('link', { name: LOCATION }).parentElement?.textContent).toBe(
      `${LOCATION} (2 in the draft)`,
    );

    // Picked from the map: shown alone, its heading focused; the preview follows it.
    fireEvent.click(within(map).getByRole('link', { name: 'header-banner' }));
    const heading = await screen.findByRole('heading', { name: 'header-banner', level: 2 });
    expect(shownLocations()).toEqual(['header-banner']);
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(within(map).getByRole('link', { name: 'header-banner' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByLabelText('Location previewed')).toHaveProperty('value', 'header-banner');
    expect(
      within(heading.closest('section')!).getByRole('link', { name: 'See header-banner as a chosen account would' }),
    ).toHaveProperty('hash', '#placements-preview-heading');
  });

  it('opens the location the address names, and keeps what was typed at one while another is shown', async () => {
    const fake = api([OPERATOR_ROLE]);
    renderAppAt(fake, `${PLACEMENTS_PAGE_PATH}?location=header-banner`);
    await screen.findByRole('heading', { name: 'header-banner', level: 2 });
    expect(shownLocations()).toEqual(['header-banner']);
    const map = screen.getByRole('navigation', { name: 'Locations' });

    fireEvent.click(within(map).getByRole('link', { name: LOCATION }));
    const section = await locationSection();
    await waitFor(() => expect(shownLocations()).toEqual([LOCATION]));
    const rule = jsonRuleBox(section, 'NewsTicker', 1);
    fireEvent.change(rule, { target: { value: '{"roles": ["operator"]' } });
    fireEvent.click(within(map).getByRole('link', { name: 'header-banner' }));
    await waitFor(() => expect(shownLocations()).toEqual(['header-banner']));

    // The save is refused for the box the draft cannot take: its location is shown again, the focus on it.
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText(/^Refused: Not saved: a box of the editor holds what the draft cannot take yet/);
    await waitFor(() => expect(shownLocations()).toEqual([LOCATION]));
    await waitFor(() => expect(document.activeElement).toBe(rule));
    expect(rule).toHaveProperty('value', '{"roles": ["operator"]');
    expect(changesAsked(fake)).toEqual([]);

    // Its slot removed, the box is gone: the refusal that blamed it goes too.
    fireEvent.click(within(section).getByRole('button', { name: card('Remove', 'NewsTicker', 1) }));
    await waitFor(() =>
      expect(
        screen.queryByText(/^Refused: Not saved: a box of the editor holds what the draft cannot take/),
      ).toBeNull(),
    );
  });
});

describe('edits not saved when the session ends', () => {
  afterEach(() => window.sessionStorage.clear());

  /** Edits NewsTicker's priority, then a save finds the session ended: the page goes to the sign-in page. */
  async function editThenLoseTheSession(): Promise<void> {
    const { unmount } = renderApp(api([OPERATOR_ROLE], { 'PUT /api/placements/draft': UNAUTHENTICATED }));
    const section = await locationSection();
    fireEvent.change(within(section).getByLabelText(card('Priority of', 'NewsTicker', 1)), { target: { value: '70' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Placements', level: 1 })).toBeNull());
    unmount();
  }

  it('are shown again to the same user, on top of the draft they were made from, and saved expecting it', async () => {
    await editThenLoseTheSession();
    const fake = api([OPERATOR_ROLE], {
      'PUT /api/placements/draft': (request) => ({
        body: overview((request.body as { document: PlacementsDocument }).document),
      }),
    });
    renderApp(fake);
    const section = await locationSection();
    expect(within(section).getByLabelText(card('Priority of', 'NewsTicker', 2))).toHaveProperty('value', '70');
    expect(screen.getByText(/Your unsaved changes from before the session changed are shown again: save them/));
    expect(screen.getByText(/Unsaved changes\./));

    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved: no problem.');
    const saved = fake.requests.find((request) => request.method === 'PUT')?.body as {
      document: PlacementsDocument;
      expectedUpdatedAt: string;
    };
    expect(saved.expectedUpdatedAt).toBe('2026-11-23T10:00:00.000Z');
    expect(saved.document.remotes?.[0]?.slots?.[LOCATION]?.[0]).toEqual({ component: 'NewsTicker', priority: 70 });
    // Taken: a later visit shows the saved draft alone.
    expect(window.sessionStorage.length).toBe(0);
  });

  it('say so when the draft was saved elsewhere since, and are not shown to someone else', async () => {
    await editThenLoseTheSession();
    const moved = { ...overview(), draft: { ...overview().draft, updatedAt: '2026-11-23T11:00:00.000Z' } };
    const { unmount } = renderApp(api([OPERATOR_ROLE], { 'GET /api/placements': { body: moved } }));
    await screen.findByText(/shown again, but the draft was saved elsewhere since: saving them will be refused/);
    unmount();

    await editThenLoseTheSession();
    const someoneElse = api([OPERATOR_ROLE], {
      'GET /me': { body: { user: { ...demoMe([OPERATOR_ROLE]).user!, username: 'ops', displayName: 'Ops' } } },
    });
    renderApp(someoneElse);
    const section = await locationSection();
    expect(within(section).getByLabelText(card('Priority of', 'NewsTicker', 1))).toHaveProperty('value', '10');
    expect(screen.queryByText(/shown again/)).toBeNull();
  });
});

describe('answers that are a page, not JSON (a proxy’s)', () => {
  it('says the placements could not be loaded, with a way to try again', async () => {
    renderApp(api([OPERATOR_ROLE], { 'GET /api/placements': proxyPage() }));
    expect((await screen.findByRole('alert')).textContent).toContain(API_CLIENT_MESSAGES.unreadable);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('says a save so answered failed, and keeps the edits on screen', async () => {
    renderApp(api([OPERATOR_ROLE], { 'PUT /api/placements/draft': proxyPage() }));
    const section = await locationSection();
    const priority = within(section).getByLabelText(card('Priority of', 'NewsTicker', 1));
    fireEvent.change(priority, { target: { value: '70' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect((await screen.findByRole('alert')).textContent).toContain(API_CLIENT_MESSAGES.unreadableChange);
    expect(screen.queryByText(/^Draft saved/)).toBeNull();
    expect(within(section).getByLabelText(card('Priority of', 'NewsTicker', 2))).toHaveProperty('value', '70');
  });
});

describe('a draft saved elsewhere since the page loaded it', () => {
  it('refuses the save with who saved it, offers to reload the saved draft, and saves from that one', async () => {
    const theirs: PlacementsDocument = {
      remotes: [{ name: 'team_news', slots: { [LOCATION]: [{ component: 'Welcome' }] } }],
    };
    const fake = api([OPERATOR_ROLE], {
      'PUT /api/placements/draft': {
        status: 409,
        body: {
          error: {
            code: 'conflict',
            message: 'The draft was saved by ops at 2026-11-23T11:00:00.000Z since you loaded it: reload it.',
            savedDraft: { updatedBy: 'ops', updatedAt: '2026-11-23T11:00:00.000Z' },
          },
        },
      },
    });
    renderApp(fake);
    const section = await locationSection();
    fireEvent.change(within(section).getByLabelText(card('Priority of', 'NewsTicker', 1)), { target: { value: '70' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    // Said with the time as the revisions show it (the reader's time zone), not the server's UTC timestamp.
    const when = instantInWords('2026-11-23T11:00:00.000Z', readerLocales());
    const refused = await screen.findByText(/^Refused: The draft was saved by ops/);
    expect(refused.textContent).toBe(
      `Refused: The draft was saved by ops at ${when} since you loaded it: reload it to see their changes ` +
        '(yours are not saved), then make yours again.',
    );
    const puts = () => fake.requests.filter((request) => request.method === 'PUT').map((request) => request.body);
    expect(puts()).toEqual([{ document: expect.any(Object), expectedUpdatedAt: '2026-11-23T10:00:00.000Z' }]);

    fake.routes.set('GET /api/placements', {
      body: {
        ...overview(theirs),
        draft: { document: theirs as never, updatedBy: 'ops', updatedAt: '2026-11-23T11:00:00.000Z' },
      },
    });
    fake.routes.set('PUT /api/placements/draft', (request) => ({
      body: { ...overview((request.body as { document: PlacementsDocument }).document) },
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Reload the saved draft (drops your changes)' }));
    await screen.findByText('The saved draft is shown: make your changes again.');
    expect(screen.queryByRole('button', { name: /^Reload the saved draft/ })).toBeNull();
    expect(within(section).queryByLabelText(/^Priority of NewsTicker/)).toBeNull();
    expect(within(section).getByLabelText(card('Priority of', 'Welcome', 1)));

    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved: no problem.');
    expect(puts()[1]).toEqual({ document: theirs, expectedUpdatedAt: '2026-11-23T11:00:00.000Z' });
  });
});

describe('publishing what the page shows', () => {
  it('publishes the draft it loaded, and is refused with a way to reload it when the draft was saved since', async () => {
    const fake = api([OPERATOR_ROLE], {
      'POST /api/placements/publish': {
        status: 409,
        body: {
          error: {
            code: 'conflict',
            message: 'The draft was saved by ops since you loaded it, so nothing was published.',
            savedDraft: { updatedBy: 'ops', updatedAt: '2026-11-23T11:00:00.000Z' },
          },
        },
      },
    });
    renderApp(fake);
    await locationSection();
    await publishConfirmed();
    const refused = await screen.findByText(/^Refused: The draft was saved by ops/);
    expect(refused.textContent).toMatch(
      /so nothing was published: reload it to see what it holds, then publish again\.$/,
    );
    expect(changesAsked(fake).map((request) => request.body)).toEqual([
      { expectedUpdatedAt: '2026-11-23T10:00:00.000Z', expectedRevision: 0 },
    ]);
    expect(screen.getByRole('button', { name: 'Reload the saved draft (drops your changes)' }));
  });

  it('names the revision it compares with, and reads the revisions again when one was published since', async () => {
    const moved =
      'Revision 1 was published by ops since this change was checked against revision 0, so nothing was published.';
    const fake = api([OPERATOR_ROLE], {
      'POST /api/placements/publish': { status: 409, body: { error: { code: 'conflict', message: moved } } },
    });
    renderApp(fake);
    await locationSection();
    await waitFor(() => expect(fake.count('GET', '/api/placements/revisions')).toBe(1));
    await publishConfirmed();
    await screen.findByText(`Refused: ${moved}`);
    expect(changesAsked(fake).map((request) => request.body)).toEqual([
      { expectedUpdatedAt: '2026-11-23T10:00:00.000Z', expectedRevision: 0 },
    ]);
    // Not a draft saved elsewhere: no reload of the draft offered, the revisions shown again instead.
    expect(screen.queryByRole('button', { name: /^Reload the saved draft/ })).toBeNull();
    await waitFor(() => expect(fake.count('GET', '/api/placements/revisions')).toBe(2));
    // Read when the page loaded, as the question opened, and after the refusal.
    expect(fake.count('GET', '/api/placements/diff')).toBe(3);
  });

  it('reads the changes again as it asks, so a revision a colleague published since shows in its counts', async () => {
    const saved = { updatedBy: 'admin', updatedAt: '2026-11-23T10:00:00.000Z' };
    let compared: object = { revision: 0, draft: saved, changes: [] };
    const fake = api([OPERATOR_ROLE], {
      'GET /api/placements/diff': () => ({ body: compared }),
      'POST /api/placements/publish': { body: { number: 2 } },
    });
    renderApp(fake);
    await locationSection();
    await waitFor(() => expect(fake.count('GET', '/api/placements/diff')).toBe(1));
    // A colleague published revision 1 without NewsTicker: the saved draft now adds it back.
    const added = {
      change: 'added',
      location: LOCATION,
      remote: 'team_news',
      id: 'NewsTicker',
      before: null,
      after: {},
    };
    compared = { revision: 1, draft: saved, changes: [added] };
    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish the draft?' });
    const question = () => dialog.querySelector('[data-placements-publish-question]')?.textContent;
    await waitFor(() =>
      expect(question()).toBe('It makes 1 change: 1 slot added. Every host serves the new revision within seconds.'),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await screen.findByText(/Revision 2 published\./);
    expect(changesAsked(fake).map((request) => request.body)).toEqual([
      { expectedUpdatedAt: saved.updatedAt, expectedRevision: 1 },
    ]);
  });

  it('closes the question when the draft was saved since, saying so with the reload offered; nothing sent', async () => {
    const loaded = { updatedBy: 'admin', updatedAt: '2026-11-23T10:00:00.000Z' };
    let compared: object = { revision: 0, draft: loaded, changes: [] };
    const fake = api([OPERATOR_ROLE], { 'GET /api/placements/diff': () => ({ body: compared }) });
    renderApp(fake);
    await locationSection();
    await waitFor(() => expect(fake.count('GET', '/api/placements/diff')).toBe(1));
    compared = { revision: 0, draft: { updatedBy: 'ops', updatedAt: '2026-11-23T11:00:00.000Z' }, changes: [] };
    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish the draft?' });
    const refused = await screen.findByText(/^Refused: The draft was saved by ops at /);
    expect(refused.textContent).toMatch(
      /since you loaded it, so nothing was published: reload it to see what it holds, then publish again\.$/,
    );
    expect((dialog as HTMLDialogElement).open).toBe(false);
    expect(screen.getByRole('button', { name: 'Reload the saved draft (drops your changes)' }));
    expect(changesAsked(fake)).toEqual([]);
  });

  it('clears what it said of an Add once the draft is published: "… in the draft" is no longer news', async () => {
    const fake = api([OPERATOR_ROLE], {
      'PUT /api/placements/draft': (request) => ({
        body: overview((request.body as { document: PlacementsDocument }).document),
      }),
      'POST /api/placements/publish': { body: { number: 1 } },
    });
    renderApp(fake);
    const section = await locationSection();
    fireEvent.change(within(section).getByLabelText(`Add a slot at ${LOCATION}`), {
      target: { value: 'team_news:Welcome' },
    });
    fireEvent.click(within(section).getByRole('button', { name: 'Add' }));
    await within(section).findByText(`Added Welcome (team_news) at ${LOCATION}: 3 slots there in the draft.`);
    await publishConfirmed();
    await screen.findByText(/Revision 1 published\./);
    expect(within(section).queryByText(/^Added Welcome/)).toBeNull();
  });

  it('replaces an address naming no location with the one it shows', async () => {
    const { router } = renderAppAt(api([OPERATOR_ROLE]), `${PLACEMENTS_PAGE_PATH}?location=dashboard-nowhere`);
    const section = await locationSection();
    expect(section.hidden).toBe(false);
    await waitFor(() => expect(router.state.location.search).toBe(`?location=${LOCATION}`));
  });

  it('says there is nothing to publish, offering no Publish, when the saved draft is what is published', async () => {
    const fake = api([OPERATOR_ROLE], { 'GET /api/placements/diff': { body: { revision: 1, changes: [] } } });
    renderApp(fake);
    await locationSection();
    const publish = screen.getByRole('button', { name: 'Publish' });
    publish.focus();
    fireEvent.click(publish);
    const dialog = await screen.findByRole('dialog', { name: 'Publish the draft?' });
    const question = () => dialog.querySelector('[data-placements-publish-question]')?.textContent;
    await waitFor(() =>
      expect(question()).toBe(
        'Nothing to publish: the saved draft is what is published, and there are no unsaved changes.',
      ),
    );
    expect(within(dialog).queryByRole('button', { name: 'Publish' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(document.activeElement).toBe(publish);
    expect(changesAsked(fake)).toEqual([]);

    // An unsaved edit is something to publish: offered again, saying so.
    const section = await locationSection();
    fireEvent.change(within(section).getByLabelText(card('Priority of', 'NewsTicker', 1)), { target: { value: '5' } });
    fireEvent.click(publish);
    await waitFor(() => expect(question()).toMatch(/your unsaved changes are saved first and are what it publishes/));
    expect(within(dialog).getByRole('button', { name: 'Publish' }));
  });

  it('asks first in the app’s dialog, counting the changes, and leaves the focus on Publish after either answer', async () => {
    const fake = api([OPERATOR_ROLE], {
      'GET /api/placements/diff': {
        body: {
          revision: 1,
          changes: [
            { change: 'added', location: LOCATION, remote: 'team_news', id: 'Welcome', before: null, after: {} },
            { change: 'order', location: LOCATION, remote: null, id: null, before: [], after: [] },
          ],
        },
      },
      'POST /api/placements/publish': { body: { number: 2 } },
    });
    renderApp(fake);
    await locationSection();
    await screen.findByText(/order at dashboard-after-cards/);
    const publish = screen.getByRole('button', { name: 'Publish' });
    publish.focus();
    fireEvent.click(publish);
    const dialog = await screen.findByRole('dialog', { name: 'Publish the draft?' });
    expect(dialog.querySelector('[data-placements-publish-question]')?.textContent).toBe(
      'It makes 2 changes: 1 slot added, 1 location in another order. Every host serves the new revision within ' +
        'seconds.',
    );
    // Opens on Cancel, so a slip of Enter publishes nothing.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((dialog as HTMLDialogElement).open).toBe(false);
    expect(document.activeElement).toBe(publish);
    expect(changesAsked(fake)).toEqual([]);

    await publishConfirmed();
    await screen.findByText(/Revision 2 published\./);
    expect(changesAsked(fake).map((request) => request.path)).toEqual(['/api/placements/publish']);
    expect(document.activeElement).toBe(publish);
  });

  it('refuses to save or publish while a box holds what the draft cannot take, with focus on it', async () => {
    const fake = api([OPERATOR_ROLE]);
    renderApp(fake);
    const section = await locationSection();
    const rule = jsonRuleBox(section, 'NewsTicker', 1);
    fireEvent.change(rule, { target: { value: '{"roles": ["operator"]' } });
    // Unsaved, though the draft could not take it.
    expect(screen.getByText(/Unsaved changes\./));
    for (const name of ['Save draft', 'Publish']) {
      fireEvent.click(screen.getByRole('button', { name }));
      await screen.findByText(/^Refused: Not saved: a box of the editor holds what the draft cannot take yet/);
      expect(document.activeElement).toBe(rule);
    }
    expect(changesAsked(fake)).toEqual([]);
  });

  it('takes a priority as typed: emptied, negative, and says when it is not a whole number', async () => {
    const fake = api([OPERATOR_ROLE], {
      'PUT /api/placements/draft': (request) => ({
        body: overview((request.body as { document: PlacementsDocument }).document),
      }),
    });
    renderApp(fake);
    const section = await locationSection();
    const priority = () =>
      within(section).getByLabelText(/^Priority of NewsTicker \(team_news\) #\d at /) as HTMLInputElement;
    fireEvent.change(priority(), { target: { value: '' } });
    expect(priority().value).toBe('');
    fireEvent.change(priority(), { target: { value: '-' } });
    expect(priority().value).toBe('-');
    fireEvent.change(priority(), { target: { value: '-5' } });
    expect(priority().value).toBe('-5');
    fireEvent.change(priority(), { target: { value: '1.7' } });
    expect(priority().value).toBe('1.7');
    expect(priority().getAttribute('aria-invalid')).toBe('true');
    expect(within(section).getByText(/^Not a whole number/));
    fireEvent.change(priority(), { target: { value: '-5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved: no problem.');
    const saved = fake.requests.find((request) => request.method === 'PUT')?.body as { document: PlacementsDocument };
    expect(saved.document.remotes?.[0]?.slots?.[LOCATION]?.[0]).toEqual({ component: 'NewsTicker', priority: -5 });
  });

  it('takes any priority the server takes, past nine digits, and refuses one past a safe integer', async () => {
    const big: PlacementsDocument = {
      remotes: [{ name: 'team_news', slots: { [LOCATION]: [{ component: 'NewsTicker', priority: 10_000_000_000 }] } }],
    };
    const fake = api([OPERATOR_ROLE], {
      'GET /api/placements': { body: overview(big) },
      'PUT /api/placements/draft': (request) => ({
        body: overview((request.body as { document: PlacementsDocument }).document),
      }),
    });
    renderApp(fake);
    const section = await locationSection();
    const priority = () => within(section).getByLabelText(card('Priority of', 'NewsTicker', 1)) as HTMLInputElement;
    expect(priority().value).toBe('10000000000');
    expect(priority().getAttribute('aria-invalid')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved: no problem.');
    const saved = fake.requests.find((request) => request.method === 'PUT')?.body as { document: PlacementsDocument };
    expect(saved.document).toEqual(big);

    fireEvent.change(priority(), { target: { value: '9007199254740993' } });
    expect(priority().getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(priority(), { target: { value: '-9007199254740991' } });
    expect(priority().getAttribute('aria-invalid')).toBe('false');
  });

  it('says when the saved draft cannot be shown, and keeps the import and the revisions to mend it', async () => {
    renderApp(api([OPERATOR_ROLE], { 'GET /api/placements': { body: overview({ remotes: 'x' } as never) } }));
    const broken = await screen.findByText(/^The saved draft cannot be shown here: "remotes" must be a list/);
    expect(broken.closest('[role="alert"]')).not.toBeNull();
    expect(screen.getByRole('heading', { name: 'Import', level: 2 }));
    expect(screen.queryByRole('heading', { name: LOCATION, level: 2 })).toBeNull();
  });

  it('says a rollback replaces the saved draft’s changes, names that draft, and is refused when it moved', async () => {
    {
      const fake = api([OPERATOR_ROLE], {
        'GET /api/placements/diff': {
          body: {
            revision: 2,
            changes: [
              {
                change: 'added',
                location: LOCATION,
                remote: 'team_news',
                id: 'Welcome',
                before: null,
                after: { component: 'Welcome' },
              },
            ],
          },
        },
        'GET /api/placements/revisions': { body: { revisions: REVISIONS, inForce: 2 } },
        'POST /api/placements/rollback': {
          status: 409,
          body: {
            error: {
              code: 'conflict',
              message: 'The draft was saved by ops since you loaded it, so nothing was rolled back.',
              savedDraft: { updatedBy: 'ops', updatedAt: '2026-11-23T11:00:00.000Z' },
            },
          },
        },
      });
      renderApp(fake);
      await screen.findByText(`added Welcome of team_news at ${LOCATION}`);
      // A colleague rolled back since (revision 3, in force), which saved the draft too: the refusal shows it.
      fake.routes.set('GET /api/placements/revisions', { body: { revisions: ROLLED_BACK, inForce: 3 } });
      const asked = await pressAndAnswer(
        await screen.findByRole('button', { name: /^Roll back to revision 1/ }),
        'Roll back to revision 1?',
        true,
      );
      expect(asked).toBe(
        "Publish revision 1's placements again, as a new revision? The saved draft differs from what is published: " +
          'its changes are replaced by those placements and lost.',
      );
      const refused = await screen.findByText(/^Refused: The draft was saved by ops/);
      expect(refused.textContent).toMatch(/so nothing was rolled back .*then roll back again\.$/);
      expect(changesAsked(fake).map((request) => request.body)).toEqual([
        { revision: 1, expectedUpdatedAt: '2026-11-23T10:00:00.000Z', expectedRevision: 2 },
      ]);
      expect(screen.getByRole('button', { name: 'Reload the saved draft (drops your changes)' }));
      await screen.findByText('rollback to 1 (in force)');
      expect(screen.queryByText('publish (in force)')).toBeNull();
    }
    {
      // Saved by a colleague before the question: said at once, nothing asked or sent.
      const fake = api([OPERATOR_ROLE], {
        'GET /api/placements/diff': {
          body: { revision: 2, draft: { updatedBy: 'ops', updatedAt: '2026-11-23T11:00:00.000Z' }, changes: [] },
        },
        'GET /api/placements/revisions': { body: { revisions: REVISIONS, inForce: 2 } },
      });
      cleanup();
      renderApp(fake);
      const rollBack = await screen.findByRole('button', { name: /^Roll back to revision 1/ });
      fake.routes.set('GET /api/placements/revisions', { body: { revisions: ROLLED_BACK, inForce: 3 } });
      fireEvent.click(rollBack);
      const refused = await screen.findByText(/^Refused: The draft was saved by ops at /);
      expect(refused.textContent).toMatch(/so nothing was rolled back .*then roll back again\.$/);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(changesAsked(fake)).toEqual([]);
      await screen.findByText('rollback to 1 (in force)');
    }
  });

  it('says when the newest revision is not in force on this host, and marks the one that is', async () => {
    const fake = api([OPERATOR_ROLE], {
      'GET /api/placements/revisions': { body: { revisions: REVISIONS, inForce: 1 } },
    });
    renderApp(fake);
    const notice = await screen.findByText(/^Revision 2 is published but not in force on this host/);
    expect(notice.textContent).toContain('so revision 1 stays in force.');
    const rows = screen.getAllByRole('row').map((row) => row.textContent ?? '');
    expect(rows.filter((row) => row.includes('(in force)'))).toEqual([expect.stringMatching(/^1publish \(in force\)/)]);
  });

  it('rolls back after the app’s dialog, then focuses the status saying what is in force; a cancel sends nothing', async () => {
    let revisions: object[] = REVISIONS;
    const fake = api([OPERATOR_ROLE], {
      'GET /api/placements/revisions': () => ({
        body: { revisions, inForce: (revisions[0] as { number: number }).number },
      }),
      'POST /api/placements/rollback': () => {
        const restored = { number: 3, action: 'rollback', restored: 1, publishedBy: 'admin' };
        revisions = [{ ...restored, publishedAt: '2026-11-23T03:00:00.000Z' }, ...REVISIONS];
        return { body: { number: 3 } };
      },
    });
    renderApp(fake);
    const button = await screen.findByRole('button', { name: /^Roll back to revision 1/ });
    await pressAndAnswer(button, 'Roll back to revision 1?', false);
    expect(document.activeElement).toBe(button);
    // The declined rollback ends (its answer is awaited) before the button is pressed again.
    await act(async () => undefined);
    expect(changesAsked(fake)).toEqual([]);

    await pressAndAnswer(button, 'Roll back to revision 1?', true);
    const status = document.querySelector<HTMLElement>('[data-placements-status]');
    await waitFor(() => expect(status?.textContent).toBe('Rolled back to revision 1: revision 3 is in force.'));
    expect(changesAsked(fake).map((request) => request.path)).toEqual(['/api/placements/rollback']);
    await waitFor(() => expect(document.activeElement).toBe(status));
    expect(screen.getByText('rollback to 1 (in force)')).toBeTruthy();
  });

  it('shows an order change, and says the changes are not known while the saved draft cannot be read', async () => {
    const order = {
      change: 'order',
      location: LOCATION,
      remote: null,
      id: null,
      before: ['NewsTicker', 'Welcome'],
      after: ['Welcome', 'NewsTicker'],
    };
    const { unmount } = renderApp(
      api([OPERATOR_ROLE], { 'GET /api/placements/diff': { body: { revision: 1, changes: [order] } } }),
    );
    await screen.findByText(`order at ${LOCATION}: NewsTicker, Welcome → Welcome, NewsTicker`);
    unmount();

    renderApp(api([OPERATOR_ROLE], { 'GET /api/placements/diff': { body: { revision: 1, changes: null } } }));
    await screen.findByText(/^Not known: part of the saved draft cannot be read/);
    expect(screen.queryByText('The saved draft is what is published.')).toBeNull();
  });

  it('says a rollback drops the unsaved changes when there are some', async () => {
    {
      const fake = api([OPERATOR_ROLE], {
        'GET /api/placements/revisions': { body: { revisions: REVISIONS, inForce: 2 } },
        // The saved draft is what is published: only the unsaved changes are lost.
        'GET /api/placements/diff': { body: { revision: 2, changes: [] } },
      });
      renderApp(fake);
      const section = await locationSection();
      fireEvent.change(within(section).getByLabelText(card('Priority of', 'NewsTicker', 1)), {
        target: { value: '3' },
      });
      const asked = await pressAndAnswer(
        await screen.findByRole('button', { name: /^Roll back to revision 1/ }),
        'Roll back to revision 1?',
        false,
      );
      expect(asked).toBe(
        "Publish revision 1's placements again, as a new revision? The draft becomes those placements: your unsaved changes are dropped.",
      );
      // Declined: nothing is sent, and the page's answer to that (no message) settles before the test ends.
      await act(async () => undefined);
      expect(changesAsked(fake)).toEqual([]);
    }
  });
});

describe('problems that stop a publish', () => {
  const problem = (index: number | null, message: string) => ({
    remote: index === null ? null : 'team_news',
    location: index === null ? null : LOCATION,
    index,
    component: index === null ? null : 'Welcome',
    kind: index === null ? 'invalid-document' : 'remote-not-allowed',
    path: null,
    message,
    blocking: true,
  });

  it('says where each is shown: with its slot, or listed under the line when it is not one slot’s', async () => {
    const withProblems = (problems: ReturnType<typeof problem>[]) =>
      api([OPERATOR_ROLE], { 'GET /api/placements': { body: { ...overview(), problems } } });
    const unknownKey = problem(null, 'Unknown key(s) slots; allowed: remotes, locations.');
    const { unmount } = renderApp(withProblems([unknownKey]));
    await locationSection();
    const line = () => document.querySelector('[data-placements-blocking]')?.textContent;
    expect(line()).toBe(
      '1 problem of the saved draft stops a publish; it is listed below, as it is not about one slot of the draft.',
    );
    expect(document.querySelector('[data-placements-elsewhere]')?.textContent).toBe(unknownKey.message);
    unmount();

    const mixed = renderApp(withProblems([unknownKey, problem(1, 'may not fill'), problem(0, 'may not fill')]));
    await locationSection();
    expect(line()).toBe(
      '3 problems of the saved draft stop a publish: 2 are shown with their slots, 1 is listed below (not about ' +
        'one slot of the draft).',
    );
    mixed.unmount();

    renderApp(withProblems([problem(1, 'may not fill')]));
    await locationSection();
    expect(line()).toBe('1 problem of the saved draft stops a publish; it is shown with its slot.');
  });
});

describe('a draft too large for the server', () => {
  it('is refused naming the limit, from the server’s JSON or a proxy’s page alike', async () => {
    const fake = api([OPERATOR_ROLE], {
      'PUT /api/placements/draft': {
        status: 413,
        body: { error: { code: 'payload_too_large', message: 'Request body too large.' } },
      },
    });
    renderApp(fake);
    const section = await locationSection();
    fireEvent.change(within(section).getByLabelText(card('Priority of', 'NewsTicker', 1)), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    const refused = await screen.findByText(/^Refused: Not saved: the draft is larger than 512 KiB of JSON/);
    expect(refused.textContent).toBe(
      'Refused: Not saved: the draft is larger than 512 KiB of JSON, the most the server takes in one request. ' +
        'Make it smaller (fewer slots, shorter props), then try again.',
    );

    fake.routes.set('PUT /api/placements/draft', { status: 413, text: '<html>413 Request Entity Too Large</html>' });
    await publishConfirmed();
    await waitFor(() => expect(fake.requests.filter((request) => request.method === 'PUT')).toHaveLength(2));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Refused: Not saved: the draft is larger than 512 KiB/,
    );
  });
});
