/**
 * The placements page's form slots: listed per remote and resource with their position and problems, added from a
 * resource, a form component and a field, moved, removed, and saved.
 */
import '../../../testing/host/router-globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  OPERATOR_ROLE,
  PLACEMENTS_PAGE_PATH,
  type PlacementComponentsPayload,
  type PlacementsDocument,
  type PlacementsPayload,
  type ResourceDefinition,
} from '../../../shared';
import { createFakeApi, type FakeApi, type FakeRoute } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';

const FORM_SLOT = { component: 'SlugPreview', props: { source: 'title' }, position: { after: 'title' } };
const DRAFT: PlacementsDocument = { remotes: [{ name: 'team_records', forms: { notes: [FORM_SLOT] } }] };

const COMPONENTS: PlacementComponentsPayload = {
  remotes: [
    {
      name: 'team_records',
      components: [
        // No schema: the props form (react-jsonschema-form, ESM only) does not load under Jest; the browser test
        // edits props through it.
        { name: 'SlugPreview', schema: null, form: true },
        { name: 'RecordBanner', schema: null, form: false },
      ],
    },
  ],
};

function field(name: string, label: string): ResourceDefinition['fields'][number] {
  return { type: 'field', name, label, input: 'text' } as ResourceDefinition['fields'][number];
}

const NOTES = {
  resource: { name: 'notes', label: 'Notes', fields: [field('title', 'Title'), field('slug', 'Slug')] },
};

function overview(document: PlacementsDocument = DRAFT): PlacementsPayload {
  return {
    draft: { document: document as never, updatedBy: 'admin', updatedAt: '2026-11-23T10:00:00.000Z' },
    problems: [],
    preview: {},
    published: null,
  };
}

function api(routes: Record<string, FakeRoute> = {}): FakeApi {
  return createFakeApi({
    'GET /me': { body: demoMe([OPERATOR_ROLE]) },
    'GET /slots': { body: { slots: {} } },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/placements': { body: overview() },
    'GET /api/placements/components': { body: COMPONENTS },
    'GET /api/placements/diff': { body: { revision: 0, changes: [] } },
    'GET /api/placements/revisions': { body: { revisions: [], inForce: 0 } },
    'GET /api/resources': { body: { resources: [{ name: 'notes', label: 'Notes' }] } },
    'GET /api/resources/notes': { body: NOTES },
    ...routes,
  });
}

async function formsSection(): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name: 'Form slots', level: 2 });
  return heading.closest('section') as HTMLElement;
}

const NAME = 'SlugPreview (team_records) in the Notes form';

/** The card numbered `place` among the form slots: its name there, unique on the page. */
const card = (place: number) => `${NAME} (Form slots #${place})`;

describe('form slots on the placements page', () => {
  it('adds one, moves it, removes both, and saves the draft as edited', async () => {
    const fake = api({
      'PUT /api/placements/draft': (request) => ({
        body: overview((request.body as { document: PlacementsDocument }).document),
      }),
    });
    renderAppAt(fake, `${PLACEMENTS_PAGE_PATH}?location=forms`);
    const section = await formsSection();
    // Numbered: two of one component in one form would read alike otherwise.
    await waitFor(() => expect(section.querySelector('h3')?.textContent).toBe(card(1)));
    const position = await within(section).findByLabelText(`Position of ${card(1)}`);
    await waitFor(() => expect(position).toHaveProperty('value', 'after:title'));

    // Only form components are offered; the position offers the end and each field.
    const components = within(section).getByLabelText('Form component') as HTMLSelectElement;
    expect([...components.options].map((option) => option.value)).toEqual(['', 'team_records:SlugPreview']);
    fireEvent.change(within(section).getByLabelText('Form of the resource'), { target: { value: 'notes' } });
    fireEvent.change(components, { target: { value: 'team_records:SlugPreview' } });
    const where = await within(section).findByLabelText('Position in the form');
    await waitFor(() =>
      expect([...(where as HTMLSelectElement).options].map((option) => option.value)).toEqual([
        'end',
        'before:title',
        'after:title',
        'before:slug',
        'after:slug',
      ]),
    );
    fireEvent.change(where, { target: { value: 'before:slug' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Add the form slot' }));
    await waitFor(() => expect(within(section).getAllByLabelText(/^Position of SlugPreview/)).toHaveLength(2));

    // The added one moved to the end; props without a schema are kept as written.
    expect(within(section).getAllByText('Its remote declares no props schema: its props are kept as they are.'));
    const added = within(section).getByLabelText(`Position of ${card(2)}`);
    // Said, and the new entry has the focus (the Add button, disabled again, would have dropped it).
    expect(within(section).getByRole('status').textContent).toBe(
      'Added SlugPreview (team_records) to the Notes form: 2 form slots there in the draft.',
    );
    expect(document.activeElement).toBe(added);
    fireEvent.change(added, { target: { value: 'end' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved: no problem.');
    let saved = fake.requests.filter((request) => request.method === 'PUT').at(-1)?.body as {
      document: PlacementsDocument;
    };
    expect(saved.document.remotes).toEqual([
      {
        name: 'team_records',
        forms: {
          notes: [FORM_SLOT, { component: 'SlugPreview', props: {} }],
        },
      },
    ]);

    fireEvent.click(within(section).getByRole('button', { name: `Remove ${card(1)}` }));
    await waitFor(() => expect(within(section).getAllByLabelText(/^Position of SlugPreview/)).toHaveLength(1));
    expect(within(section).getByLabelText(`Position of ${card(1)}`)).toHaveProperty('value', 'end');
    fireEvent.click(within(section).getByRole('button', { name: `Remove ${card(1)}` }));
    await within(section).findByText('The draft places nothing in a form.');
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(fake.requests.filter((request) => request.method === 'PUT')).toHaveLength(2));
    saved = fake.requests.filter((request) => request.method === 'PUT').at(-1)?.body as {
      document: PlacementsDocument;
    };
    expect(saved.document.remotes).toEqual([]);
  });

  it('shows each problem of the saved draft at its form slot', async () => {
    renderAppAt(
      api({
        'GET /api/placements': {
          body: {
            ...overview(),
            problems: [
              {
                remote: 'team_records',
                location: 'resource form "notes"',
                index: 0,
                component: 'SlugPreview',
                kind: 'form-position-invalid',
                path: null,
                message: 'no field "body" in the form of "notes"',
                blocking: true,
              },
            ],
          },
        },
      }),
      `${PLACEMENTS_PAGE_PATH}?location=forms`,
    );
    const section = await formsSection();
    const slot = section.querySelector('[data-placement-form-slot="team_records:notes:SlugPreview"]') as HTMLElement;
    expect(slot.querySelector('[data-placement-problems]')?.textContent).toMatch(/no field "body"/);
  });
});
