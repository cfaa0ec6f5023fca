import '../../../testing/host/router-globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  HOST_TOOLS_UNAVAILABLE_ATTRIBUTE,
  OPERATOR_ROLE,
  PLACEMENTS_PAGE_PATH,
  PLACEMENTS_PREVIEW_PATH,
  type PlacementsDocument,
  type PlacementsPreviewPayload,
  type PlacementsPreviewRequest,
} from '../../../shared';
import { UNAVAILABLE_TOOLS_MESSAGE } from '../../layout/unavailable-tools-notice';
import { type FakeApi, type RecordedRequest } from '../../../testing/host/fake-api';
import { placementsPageApi } from '../../../testing/host/placements-page-api';
import { renderAppAt } from '../../../testing/host/render-app';

const LOCATION = 'dashboard-after-cards';

const DRAFT: PlacementsDocument = {
  remotes: [{ name: 'team_news', slots: { [LOCATION]: [{ component: 'Welcome', props: { title: 'Hello' } }] } }],
};

/**
 * The server's answer, made from what the editor sent: its Welcome slot with the props of the document, a slot of a
 * component no remote registered, and one hidden from viewers by its rule.
 */
function previewAnswer({ body }: RecordedRequest): { body: PlacementsPreviewPayload } {
  const sent = body as PlacementsPreviewRequest;
  const document = sent.document as PlacementsDocument;
  const welcome = document.remotes![0]!.slots![LOCATION]![0] as { props: Record<string, string> };
  const viewer = sent.context.roles.includes('viewer');
  return {
    body: {
      context: { roles: sent.context.roles, permissions: [], tenant: sent.context.tenant, flags: [] },
      problems: [],
      locations: {
        [sent.location!]: {
          slots: [
            { component: 'Welcome', props: welcome.props },
            { component: 'Vanished', props: {} },
            ...(viewer ? [] : [{ component: 'OperatorsNote', props: {} }]),
          ],
          placed: [
            { id: 'Welcome', component: 'Welcome', remote: 'team_news', source: 'draft', outcome: 'shown' },
            { id: 'Vanished', component: 'Vanished', remote: null, source: 'code', outcome: 'shown' },
            {
              id: 'OperatorsNote',
              component: 'OperatorsNote',
              remote: 'team_news',
              source: 'file',
              visibleWhen: { roles: ['operator'] },
              ...(viewer ? { outcome: 'hidden', reason: 'hidden by its rule: role operator' } : { outcome: 'shown' }),
            },
          ],
        },
      },
    },
  };
}

function api(): FakeApi {
  return placementsPageApi(DRAFT, {}, { [`POST ${PLACEMENTS_PREVIEW_PATH}`]: previewAnswer });
}

const COMPONENTS = {
  Welcome: ({ title }: { title: string }) => <p>Welcome card: {title}</p>,
  OperatorsNote: () => <p>For operators</p>,
};

let errors: jest.SpyInstance;
beforeEach(() => {
  // The preview logs its failing slot once, as every slot status does.
  errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());

describe('the placements preview', () => {
  it('renders the location in slot boundaries, kept out of the page’s slot status, and lists hidden slots', async () => {
    const fake = api();
    renderAppAt(fake, PLACEMENTS_PAGE_PATH, COMPONENTS);
    const stage = await screen.findByText('Welcome card: Hello');
    const section = stage.closest('section') as HTMLElement;
    // The component no remote registered: its boundary's placeholder, in production too, and the rest carries on. It
    // may come a moment after the slot that renders (its loading fails in a later turn).
    expect(await within(section).findByText(/Slot “Vanished” did not render at dashboard-after-cards/)).toBeTruthy();
    expect(within(section).getByText(/Shown in the placements preview only/)).toBeTruthy();
    expect(within(section).getByText('For operators')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Placements', level: 1 })).toBeTruthy();
    // The preview's slots are not the page's: its failure is in neither the page's notice nor the mark on <html>.
    expect(screen.queryByText(UNAVAILABLE_TOOLS_MESSAGE)).toBeNull();
    expect(document.documentElement.hasAttribute(HOST_TOOLS_UNAVAILABLE_ATTRIBUTE)).toBe(false);
    expect(fake.requests.filter((request) => request.method === 'POST')[0]?.body).toEqual({
      document: DRAFT,
      location: LOCATION,
      context: { roles: [OPERATOR_ROLE], tenant: 'acme' },
    });

    fireEvent.change(within(section).getByLabelText('As role'), { target: { value: 'viewer' } });
    await waitFor(() => expect(within(section).queryByText('For operators')).toBeNull());
    const hidden = section.querySelector('[data-preview-outcome="hidden"]');
    expect(hidden?.textContent).toBe('OperatorsNote (file, team_news): hidden by its rule: role operator');
  });

  it('offers the tenants and flags the page read for its rule builders: one request for them at load, not two', async () => {
    const fake = placementsPageApi(
      DRAFT,
      {},
      {
        [`POST ${PLACEMENTS_PREVIEW_PATH}`]: previewAnswer,
        [`GET ${PLACEMENTS_PREVIEW_PATH}`]: {
          body: { roles: [OPERATOR_ROLE], tenants: [{ id: 'globex', name: 'Globex' }], flags: ['beta-nav'] },
        },
      },
    );
    renderAppAt(fake, PLACEMENTS_PAGE_PATH, COMPONENTS);
    const section = (await screen.findByText('Welcome card: Hello')).closest('section') as HTMLElement;
    const tenant = within(section).getByLabelText('In tenant') as HTMLSelectElement;
    await waitFor(() => expect([...tenant.options].map((option) => option.value)).toEqual(['globex']));
    fireEvent.click(within(section).getByLabelText(/Choose the feature flags/));
    const known = section.querySelector('#placements-preview-known-flags');
    expect([...(known?.querySelectorAll('option') ?? [])].map((option) => option.value)).toEqual(['beta-nav']);
    expect(fake.count('GET', PLACEMENTS_PREVIEW_PATH)).toBe(1);
  });

  it('shows the location its link was followed from, even where the preview’s own choice moved it since', async () => {
    const fake = api();
    renderAppAt(fake, PLACEMENTS_PAGE_PATH, COMPONENTS);
    const section = (await screen.findByText('Welcome card: Hello')).closest('section') as HTMLElement;
    const previewed = within(section).getByLabelText('Location previewed') as HTMLSelectElement;
    const lastAsked = () =>
      (fake.requests.filter((request) => request.method === 'POST').at(-1)?.body as PlacementsPreviewRequest).location;
    const edited = (await screen.findByRole('heading', { name: LOCATION, level: 2 })).closest('section') as HTMLElement;
    const link = () => within(edited).getByRole('link', { name: `See ${LOCATION} as a chosen account would` });
    fireEvent.change(previewed, { target: { value: 'header-banner' } });
    await waitFor(() => expect(lastAsked()).toBe('header-banner'));

    // The link says which location it shows: followed, the preview takes it, and its heading the focus.
    fireEvent.click(link());
    expect(previewed.value).toBe(LOCATION);
    expect(document.activeElement).toBe(within(section).getByRole('heading', { name: 'Preview', level: 2 }));
    await waitFor(() => expect(lastAsked()).toBe(LOCATION));
    // Each press: the preview's own choice moved it again, the link takes it back.
    fireEvent.change(previewed, { target: { value: 'header-banner' } });
    fireEvent.click(link());
    expect(previewed.value).toBe(LOCATION);
  });

  it('draws the location inert, a picture to look at: its list of slots, outside it, says them in words', async () => {
    renderAppAt(api(), PLACEMENTS_PAGE_PATH, COMPONENTS);
    const drawn = await screen.findByText('Welcome card: Hello');
    const section = drawn.closest('section') as HTMLElement;
    expect(drawn.closest('[inert]')).not.toBeNull();
    expect(section.querySelector('[data-placements-preview-slots]')?.closest('[inert]')).toBeNull();
  });
});
