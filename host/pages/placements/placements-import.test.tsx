/**
 * The placements page's import: a file chosen or JSON pasted is sent to the import route, the page says what was
 * kept and what the server dropped, and the draft shown is the imported one.
 * The live preview's POST (a read, sent once the page is still for 300 ms) is left out of what is counted: whether
 * it comes before an assertion depends on the machine's speed.
 */
import '../../../testing/host/router-globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  OPERATOR_ROLE,
  PLACEMENTS_PAGE_PATH,
  PLACEMENTS_PREVIEW_PATH,
  type PlacementsDocument,
  type PlacementsDraftPayload,
  type PlacementsPayload,
} from '../../../shared';
import { createFakeApi, type FakeApi, type FakeRoute } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { fakeModalDialogs } from '../../../testing/host/modal-dialogs';

const LOCATION = 'dashboard-after-cards';

const FILE = {
  allowedOrigins: ['https://news.example'],
  remotes: [
    {
      name: 'team_news',
      entry: 'https://news.example/mf-manifest.json',
      slots: { [LOCATION]: [{ component: 'NewsTicker' }] },
      forms: { notes: [{ component: 'SlugPreview', position: { after: 'title' } }] },
    },
  ],
  locations: { [LOCATION]: ['team_news'] },
};

const IMPORTED: PlacementsDocument = {
  remotes: [{ name: 'team_news', slots: FILE.remotes[0]!.slots, forms: FILE.remotes[0]!.forms }],
  locations: FILE.locations,
};

/** The import's address: the version of the draft the page loaded rides along (the body is the file itself). */
const IMPORT = `POST /api/placements/import?expectedUpdatedAt=${encodeURIComponent('2026-11-23T10:00:00.000Z')}`;

function draftOf(document: PlacementsDocument): PlacementsPayload['draft'] {
  return { document: document as never, updatedBy: 'admin', updatedAt: '2026-11-23T10:00:00.000Z' };
}

function api(routes: Record<string, FakeRoute> = {}): FakeApi {
  const imported: PlacementsDraftPayload = {
    draft: draftOf(IMPORTED),
    problems: [],
    preview: {},
    ignored: ['allowedOrigins', 'remotes[0].entry'],
  };
  return createFakeApi({
    'GET /me': { body: demoMe([OPERATOR_ROLE]) },
    'GET /slots': { body: { slots: {} } },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/placements': { body: { draft: draftOf({}), problems: [], preview: {}, published: null } },
    'GET /api/placements/components': { body: { remotes: [] } },
    'GET /api/placements/diff': { body: { revision: 0, changes: [] } },
    'GET /api/placements/revisions': { body: { revisions: [], inForce: 0 } },
    'GET /api/resources': { body: { resources: [{ name: 'notes', label: 'Notes' }] } },
    'GET /api/resources/notes': { body: { resource: { name: 'notes', label: 'Notes', fields: [] } } },
    [IMPORT]: { body: imported },
    ...routes,
  });
}

async function importSection(): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name: 'Import', level: 2 });
  return heading.closest('section') as HTMLElement;
}

describe('the import on the placements page', () => {
  it('sends a chosen file, says what was kept and dropped, and shows the imported draft', async () => {
    const fake = api();
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const section = await importSection();
    const file = new File([JSON.stringify(FILE)], 'remotes.json', { type: 'application/json' });
    fireEvent.change(within(section).getByLabelText('JSON file to import'), { target: { files: [file] } });
    const text = within(section).getByLabelText(/^JSON to import/) as HTMLTextAreaElement;
    await waitFor(() => expect(JSON.parse(text.value)).toEqual(FILE));
    fireEvent.click(within(section).getByRole('button', { name: 'Import into the draft' }));

    await screen.findByText(
      'Imported into the draft: 1 slot, 1 form slot, 1 allow-list kept; dropped as not placements: ' +
        'allowedOrigins, remotes[0].entry.',
    );
    expect(
      fake.requests.find((request) => request.method === 'POST' && request.path !== PLACEMENTS_PREVIEW_PATH)?.body,
    ).toEqual(FILE);
    const location = screen.getByRole('heading', { name: LOCATION, level: 2 }).closest('section') as HTMLElement;
    expect(location.querySelector('[data-placement-slot="team_news:NewsTicker"]')).not.toBeNull();
    expect(screen.getByText('SlugPreview (team_news) in the Notes form (Form slots #1)'));
  });

  it('says pasted text is not JSON without sending it, and shows a refusal of the server', async () => {
    const fake = api({
      [IMPORT]: {
        status: 400,
        body: { error: { code: 'invalid_body', message: 'The body must be a JSON object.' } },
      },
    });
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const section = await importSection();
    const text = within(section).getByLabelText(/^JSON to import/);
    const importButton = within(section).getByRole('button', { name: 'Import into the draft' });
    fireEvent.change(text, { target: { value: '{"remotes": [' } });
    importButton.focus();
    fireEvent.click(importButton);
    expect(within(section).getByText(/^Not JSON:/));
    expect(text.getAttribute('aria-invalid')).toBe('true');
    // The text takes the focus, described by the refusal: read out, not left unsaid on the button.
    expect(document.activeElement).toBe(text);
    expect(document.getElementById(text.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/^Not JSON:/);

    // JSON, but no document: said here too, nothing sent; the same refusal twice takes the focus twice.
    for (const value of ['[1, 2]', '"text"', '"text"']) {
      fireEvent.change(text, { target: { value } });
      importButton.focus();
      fireEvent.click(importButton);
      expect(within(section).getByText(/^Not a placements document: a JSON object/));
      expect(document.activeElement).toBe(text);
    }
    expect(
      fake.requests.filter((request) => request.method === 'POST' && request.path !== PLACEMENTS_PREVIEW_PATH),
    ).toHaveLength(0);

    // The server's refusal is said at the box too, which keeps the focus: not at the page's top, away from it.
    fireEvent.change(text, { target: { value: '{"remotes": "x"}' } });
    importButton.focus();
    fireEvent.click(importButton);
    await within(section).findByText('Not imported: The body must be a JSON object.');
    await waitFor(() => expect(document.activeElement).toBe(text));
    expect(text.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(
      fake.requests.filter((request) => request.method === 'POST' && request.path !== PLACEMENTS_PREVIEW_PATH),
    ).toHaveLength(1);
  });

  it('clears the status of an earlier import when a later one is refused, here or by the server', async () => {
    const fake = api();
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const section = await importSection();
    const text = within(section).getByLabelText(/^JSON to import/);
    const importButton = within(section).getByRole('button', { name: 'Import into the draft' });
    const status = () => document.querySelector<HTMLElement>('[data-placements-status]')?.textContent;
    fireEvent.change(text, { target: { value: JSON.stringify(FILE) } });
    fireEvent.click(importButton);
    await waitFor(() => expect(status()).toMatch(/^Imported into the draft: 1 slot/));

    fireEvent.change(text, { target: { value: 'not json' } });
    fireEvent.click(importButton);
    expect(within(section).getByText(/^Not JSON:/));
    expect(status()).toBe('');

    fireEvent.change(text, { target: { value: JSON.stringify(FILE) } });
    fireEvent.click(importButton);
    await waitFor(() => expect(status()).toMatch(/^Imported into the draft: 1 slot/));
    fake.routes.set(IMPORT, {
      status: 400,
      body: { error: { code: 'invalid_request', message: 'Not saved: remotes[0].slots is not a map.' } },
    });
    fireEvent.change(text, { target: { value: '{"remotes":[{"name":"team_marketing","slots":[1]}]}' } });
    fireEvent.click(importButton);
    await within(section).findByText('Not imported: Not saved: remotes[0].slots is not a map.');
    expect(status()).toBe('');
  });
});

describe('an import over a saved draft not published', () => {
  fakeModalDialogs();

  it('says that the saved draft’s changes are lost, as a rollback does, and imports only once confirmed', async () => {
    const unpublished = { change: 'added', location: LOCATION, remote: 'team_news', id: 'X', before: null, after: {} };
    const fake = api({ 'GET /api/placements/diff': { body: { revision: 1, changes: [unpublished] } } });
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const section = await importSection();
    fireEvent.change(within(section).getByLabelText(/^JSON to import/), { target: { value: JSON.stringify(FILE) } });
    const sent = () =>
      fake.requests.filter((request) => request.method === 'POST' && request.path !== PLACEMENTS_PREVIEW_PATH);
    fireEvent.click(within(section).getByRole('button', { name: 'Import into the draft' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import over the saved draft?' });
    expect(document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'The saved draft differs from what is published: its changes are replaced by the imported placements and lost.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(false));
    expect(sent()).toHaveLength(0);

    fireEvent.click(within(section).getByRole('button', { name: 'Import into the draft' }));
    await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(true));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    await screen.findByText(/^Imported into the draft: 1 slot/);
    expect(sent()).toHaveLength(1);
  });
});

describe('an import over unsaved changes', () => {
  fakeModalDialogs();

  it('asks first in the app’s dialog: Escape sends nothing, focus back on Import; confirmed, the status takes it', async () => {
    const saved = { remotes: [{ name: 'team_news', slots: { [LOCATION]: [{ component: 'NewsTicker' }] } }] };
    const fake = api({
      'GET /api/placements': { body: { draft: draftOf(saved), problems: [], preview: {}, published: null } },
      'GET /api/placements/components': {
        body: { remotes: [{ name: 'team_news', components: [{ name: 'NewsTicker', schema: null, form: false }] }] },
      },
    });
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    fireEvent.change(await screen.findByLabelText(`Priority of NewsTicker (team_news) #1 at ${LOCATION}`), {
      target: { value: '3' },
    });
    const section = await importSection();
    fireEvent.change(within(section).getByLabelText(/^JSON to import/), { target: { value: JSON.stringify(FILE) } });
    const importButton = within(section).getByRole('button', { name: 'Import into the draft' });
    const sent = () =>
      fake.requests.filter((request) => request.method === 'POST' && request.path !== PLACEMENTS_PREVIEW_PATH);

    importButton.focus();
    fireEvent.click(importButton);
    const dialog = await screen.findByRole('dialog', { name: 'Import over your unsaved changes?' });
    expect(document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'The import replaces the draft: your unsaved changes are dropped.',
    );
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Escape' });
    expect((dialog as HTMLDialogElement).open).toBe(false);
    expect(document.activeElement).toBe(importButton);
    await waitFor(() => expect(dialog.getAttribute('aria-labelledby')).not.toBeNull());
    expect(sent()).toHaveLength(0);

    fireEvent.click(importButton);
    await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(true));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    const status = document.querySelector<HTMLElement>('[data-placements-status]');
    await waitFor(() => expect(status?.textContent).toMatch(/^Imported into the draft: 1 slot/));
    expect(sent()).toHaveLength(1);
    await waitFor(() => expect(document.activeElement).toBe(status));
  });
});

describe('a file with a top-level key that is neither placements nor REMOTES_CONFIG’s', () => {
  it('is refused before it is sent, naming the key', async () => {
    const fake = api();
    renderAppAt(fake, PLACEMENTS_PAGE_PATH);
    const section = await importSection();
    const text = within(section).getByLabelText(/^JSON to import/);
    const { locations, ...rest } = FILE;
    fireEvent.change(text, { target: { value: JSON.stringify({ ...rest, locaitons: locations }) } });
    fireEvent.click(within(section).getByRole('button', { name: 'Import into the draft' }));
    expect(
      within(section).getByText(
        'Not imported: the top-level key "locaitons" is neither placements (remotes, locations) nor of a ' +
          'REMOTES_CONFIG file ($schema, allowedOrigins, dropped on import). Correct the name (a misspelt "locations" ' +
          'would lose its allow-lists) or remove the key, then import again; the draft is unchanged.',
      ),
    );
    expect(text.getAttribute('aria-invalid')).toBe('true');
    expect(
      fake.requests.filter((request) => request.method === 'POST' && request.path !== PLACEMENTS_PREVIEW_PATH),
    ).toHaveLength(0);
  });
});
