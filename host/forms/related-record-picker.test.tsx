import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import {
  UNCHANGED_FIELDS_KEY,
  type RecordListPayload,
  type ResourceDefinition,
  type ResourceRecord,
} from '../../shared';
import {
  ApiClientProvider,
  ComponentRegistry,
  createSlotStatus,
  SlotRuntimeProvider,
  SlotSourceProvider,
} from '../core';
import { UnsavedChangesProvider } from '../hooks/unsaved-changes';
import { createFakeApi, type FakeApi } from '../../testing/host/fake-api';
import { createTestSlotSource } from '../../testing/host/slot-source';
import { PICKER_CHOICES, UNCHOSEN_MESSAGE } from './related-record-picker';
import { ResourceForm } from './resource-form';

const definition: ResourceDefinition = {
  name: 'articles',
  label: 'Articles',
  relations: [{ name: 'author', label: 'Author', resource: 'authors' }],
  listColumns: ['title'],
  sortableColumns: ['title'],
  searchableColumns: ['title'],
  filters: [],
  canCreate: true,
  canDelete: true,
  fields: [
    { type: 'field', name: 'title', label: 'Title', input: 'text', required: true },
    { type: 'field', name: 'authorId', label: 'Author', input: 'relation', resource: 'authors', relation: 'author' },
  ],
};

const ada: ResourceRecord = { id: 1, title: 'Ada Lovelace', label: 'Staff writer' };
const grace: ResourceRecord = { id: 2, title: 'Grace Hopper', label: 'Technical editor' };
const alan: ResourceRecord = { id: 3, title: 'Alan Turing', label: 'Guest' };
const AUTHORS = '/api/resources/authors/records';

function page(records: ResourceRecord[], next?: string): RecordListPayload {
  return {
    records,
    page: {
      sort: 'title',
      order: 'asc',
      limit: PICKER_CHOICES,
      q: '',
      search: '',
      filters: {},
      total: { count: records.length, exact: true },
      ...(next ? { next } : {}),
    },
  };
}

function authorsApi(): FakeApi {
  const user = { username: 'admin', displayName: 'Admin', tenants: [], currentTenant: 'acme' };
  const api = createFakeApi({
    'GET /me': { body: { user } },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    [`GET ${AUTHORS}?sort=title&limit=${PICKER_CHOICES}`]: { body: page([ada, alan, grace], 'more') },
    [`GET ${AUTHORS}?search=gra&limit=${PICKER_CHOICES}`]: { body: page([grace]) },
    [`GET ${AUTHORS}?search=Alan%20Turing&limit=${PICKER_CHOICES}`]: { body: page([alan]) },
    [`GET ${AUTHORS}?search=zzz&limit=${PICKER_CHOICES}`]: { body: page([]) },
    [`GET ${AUTHORS}/2`]: { body: { record: grace, relations: [] } },
  });
  api.routes.set('PUT /api/resources/articles/records/10', (request) => ({
    body: { record: { id: 10, title: 'Piece', label: 'x', ...(request.body as object) }, relations: [] },
  }));
  return api;
}

async function renderForm(api: FakeApi, record: ResourceRecord, related: ResourceRecord[]) {
  const slotRegistry = new ComponentRegistry('SlotComponentRegistry');
  const globalRegistry = new ComponentRegistry('GlobalComponentRegistry');
  render(
    <ApiClientProvider client={api.client}>
      <SlotRuntimeProvider
        runtime={{ slotRegistry, globalRegistry, ...createSlotStatus({ log: () => undefined }), showFailures: true }}
      >
        <SlotSourceProvider source={createTestSlotSource(api)}>
          <UnsavedChangesProvider>
            <ResourceForm
              definition={definition}
              record={record}
              relations={[{ name: 'author', label: 'Author', resource: 'authors', records: related }]}
            />
          </UnsavedChangesProvider>
        </SlotSourceProvider>
      </SlotRuntimeProvider>
    </ApiClientProvider>,
  );
  await act(async () => undefined);
  return screen.getByRole('combobox', { name: 'Author' }) as HTMLInputElement;
}

const puts = (api: FakeApi) => api.requests.filter((request) => request.method === 'PUT').map((each) => each.body);
const options = () => screen.queryAllByRole('option').map((option) => option.textContent);

describe('a relation field in the record form', () => {
  it('names the chosen record from the page without a request, searches as one types and saves the chosen id', async () => {
    const api = authorsApi();
    const box = await renderForm(api, { id: 10, title: 'Piece', label: 'x', authorId: 1 }, [ada]);
    expect(box.value).toBe('Ada Lovelace');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(api.requests.filter((request) => request.path.startsWith(AUTHORS))).toEqual([]);

    fireEvent.change(box, { target: { value: 'gra' } });
    await waitFor(() => expect(options()).toEqual(['Grace Hopper · Technical editor']));
    expect(api.count('GET', `${AUTHORS}?search=gra&limit=${PICKER_CHOICES}`)).toBe(1);
    expect(screen.getByText('1 to choose from.').getAttribute('role')).toBe('status');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option').id);
    expect(screen.getByRole('option').getAttribute('aria-selected')).toBe('true');
    // Enter chooses: the form is not sent with the choice half made.
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('Grace Hopper');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(puts(api)).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(puts(api)).toEqual([{ authorId: 2, [UNCHANGED_FIELDS_KEY]: { authorId: 1 } }]);
  });

  it('opens the first records by title with ArrowDown, says when there are more, and Escape gives the choice back', async () => {
    const api = authorsApi();
    const box = await renderForm(api, { id: 10, title: 'Piece', label: 'x', authorId: 1 }, [ada]);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    await waitFor(() => expect(options()).toHaveLength(3));
    expect(screen.getByText(/The first 3: type a name to find others/)).toBeTruthy();
    expect(screen.getByRole('option', { selected: true }).textContent).toContain('Ada Lovelace');
    fireEvent.change(box, { target: { value: 'zzz' } });
    expect(await screen.findByText('Nothing matches “zzz”.')).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.value).toBe('Ada Lovelace');
    expect(box.getAttribute('aria-expanded')).toBe('false');
  });

  it('chooses none when the box is emptied or cleared, and a title typed in full when it leaves the box', async () => {
    const api = authorsApi();
    const box = await renderForm(api, { id: 10, title: 'Piece', label: 'x', authorId: 1 }, [ada]);
    fireEvent.change(box, { target: { value: '' } });
    fireEvent.blur(box);
    expect(box.value).toBe('');
    expect(screen.queryByRole('button', { name: /^Clear/ })).toBeNull();

    fireEvent.change(box, { target: { value: 'Alan Turing' } });
    await waitFor(() => expect(options()).toEqual(['Alan Turing · Guest']));
    fireEvent.blur(box);
    expect(box.value).toBe('Alan Turing');
    fireEvent.click(screen.getByRole('button', { name: 'Clear Alan Turing' }));
    expect(box.value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(puts(api)).toEqual([{ authorId: null, [UNCHANGED_FIELDS_KEY]: { authorId: 1 } }]);
  });

  it('refuses to save a name typed and not chosen yet, then chooses it with Enter once found', async () => {
    const api = authorsApi();
    const box = await renderForm(api, { id: 10, title: 'Piece', label: 'x', authorId: 1 }, [ada]);
    // Typed and sent at once, before the search has even been asked for.
    fireEvent.change(box, { target: { value: 'Alan Turing' } });
    fireEvent.blur(box);
    expect(box.getAttribute('data-unchosen')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe(UNCHOSEN_MESSAGE);
    expect(puts(api)).toEqual([]);
    expect(document.activeElement).toBe(box);
    await waitFor(() => expect(options()).toEqual(['Alan Turing · Guest']));
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('Alan Turing');
    // Chosen: the refusal is no longer true, and goes before the next save.
    await waitFor(() => expect(screen.queryByText(UNCHOSEN_MESSAGE)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(puts(api)).toEqual([{ authorId: 3, [UNCHANGED_FIELDS_KEY]: { authorId: 1 } }]);
  });

  it('chooses a name typed in full on an Enter pressed before its search, from that search, at once', async () => {
    const api = authorsApi();
    const box = await renderForm(api, { id: 10, title: 'Piece', label: 'x', authorId: 1 }, [ada]);
    box.focus();
    // Enter within the search's delay: the search is asked for now, not after the delay, and its one match chosen.
    fireEvent.change(box, { target: { value: 'Alan Turing' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(api.count('GET', `${AUTHORS}?search=Alan%20Turing&limit=${PICKER_CHOICES}`)).toBe(1);
    await waitFor(() => expect(screen.queryByRole('listbox', { hidden: false })).toBeNull());
    expect(box.value).toBe('Alan Turing');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(puts(api)).toEqual([{ authorId: 3, [UNCHANGED_FIELDS_KEY]: { authorId: 1 } }]);
  });

  it('leaves the list open on an early Enter whose search finds nothing', async () => {
    const api = authorsApi();
    const box = await renderForm(api, { id: 10, title: 'Piece', label: 'x', authorId: 1 }, [ada]);
    box.focus();
    fireEvent.change(box, { target: { value: 'zzz' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('Nothing matches “zzz”.')).toBeTruthy();
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(box.value).toBe('zzz');
  });

  it('takes the refusal of a name not chosen away once Escape gives the choice back, and not before', async () => {
    const api = authorsApi();
    const box = await renderForm(api, { id: 10, title: 'Piece', label: 'x', authorId: 1 }, [ada]);
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'Alan Tur' } });
    fireEvent.blur(box);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe(UNCHOSEN_MESSAGE);
    // Still a name not chosen after more typing: the refusal stays.
    fireEvent.change(box, { target: { value: 'Alan Turi' } });
    expect(box.getAttribute('data-holds-unchosen')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe(UNCHOSEN_MESSAGE);
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.value).toBe('Ada Lovelace');
    await waitFor(() => expect(screen.queryByText(UNCHOSEN_MESSAGE)).toBeNull());
    expect(puts(api)).toEqual([]);
  });

  it('gives the choice back on Escape after the box was emptied, reaches the last option with ArrowUp, keeps the focus on Clear', async () => {
    const api = authorsApi();
    const box = await renderForm(api, { id: 10, title: 'Piece', label: 'x', authorId: 1 }, [ada]);
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: '' } });
    // Emptied: none at once (no Clear button left for the next Tab to fall on).
    expect(screen.queryByRole('button', { name: /^Clear/ })).toBeNull();
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.value).toBe('Ada Lovelace');

    fireEvent.keyDown(box, { key: 'ArrowDown' });
    await waitFor(() => expect(options()).toHaveLength(3));
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[2]?.id);
    // Selected is where the arrows are, not the record chosen before (Ada): one option at a time.
    expect(screen.getAllByRole('option', { selected: true }).map((option) => option.id)).toEqual([
      screen.getAllByRole('option')[2]?.id,
    ]);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('Grace Hopper');

    screen.getByRole('button', { name: 'Clear Grace Hopper' }).focus();
    fireEvent.click(screen.getByRole('button', { name: 'Clear Grace Hopper' }));
    expect(box.value).toBe('');
    expect(document.activeElement).toBe(box);
  });

  it('asks for the title of a chosen record it does not have, and says when that record is gone', async () => {
    const api = authorsApi();
    const box = await renderForm(api, { id: 10, title: 'Piece', label: 'x', authorId: 2 }, []);
    await waitFor(() => expect(box.value).toBe('Grace Hopper'));
    expect(api.count('GET', `${AUTHORS}/2`)).toBe(1);
    cleanup();
    const gone = await renderForm(authorsApi(), { id: 10, title: 'Piece', label: 'x', authorId: 9 }, []);
    await waitFor(() => expect(gone.value).toBe('#9 (not found)'));
  });
});
