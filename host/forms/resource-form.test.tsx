import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  API_CLIENT_MESSAGES,
  restoreDeadlineInUtc,
  UNCHANGED_FIELDS_KEY,
  VIEWER_CANNOT_CHANGE_RECORDS,
  type FormSlotProps,
  type JsonValue,
  type ResourceDefinition,
  type ResourceRecord,
} from '../../shared';
import {
  ApiClientProvider,
  ComponentRegistry,
  createSlotStatus,
  SlotRuntimeProvider,
  SlotSourceProvider,
  type SlotFailure,
} from '../core';
import { HOST_MESSAGES } from '../loader/messages';
import { UnsavedChangesProvider } from '../hooks/unsaved-changes';
import { createFakeApi, proxyPage, type FakeApi } from '../../testing/host/fake-api';
import { createTestSlotSource } from '../../testing/host/slot-source';
import { CREATE_UNANSWERED_MESSAGE } from './creation-key';
import { ResourceForm } from './resource-form';
import { instantInWords } from '../../shared/date-time-in-words';
import { readerLocales } from '../text/reader-locales';

/** A form slot: shows what it receives and writes into the form through formContext. */
function TitleTools({ resource, formContext, source, target }: FormSlotProps<{ source: string; target: string }>) {
  const value = String(formContext.values[source] ?? '');
  return (
    <div>
      <p data-testid="tools">
        {resource}|{formContext.mode}|{value}|{Object.keys(formContext.errors).join(',')}
      </p>
      <button type="button" onClick={() => formContext.setValue(target, value.toUpperCase())}>
        Copy upper-case
      </button>
    </div>
  );
}
function PageOnly() {
  return <p>page-only component</p>;
}

const definition: ResourceDefinition = {
  name: 'articles',
  label: 'Articles',
  recordLabel: 'article',
  relations: [],
  listColumns: ['title', 'label'],
  sortableColumns: ['title', 'label'],
  filters: [],
  canCreate: true,
  canDelete: true,
  searchableColumns: ['title', 'label'],
  fields: [
    { type: 'field', name: 'title', label: 'Title', input: 'text', required: true },
    { type: 'slot', component: 'TitleTools', props: { source: 'title', target: 'slug' } },
    { type: 'field', name: 'slug', label: 'Slug', input: 'text' },
    { type: 'slot', component: 'PageOnly', props: {} },
    { type: 'field', name: 'group', label: 'Group', input: 'select', options: ['news', 'guides'] },
    { type: 'slot', component: 'Nowhere', props: {} },
    { type: 'field', name: 'body', label: 'Body', input: 'textarea' },
  ],
};
const record: ResourceRecord = {
  id: 3,
  title: 'Hello world',
  label: 'Greeting',
  slug: '',
  group: 'news',
  body: 'Text',
};

/** `shown` null: the New page's form, for a record not created yet. */
async function renderForm(api: FakeApi, shown: ResourceRecord | null = record, form: ResourceDefinition = definition) {
  const slotRegistry = new ComponentRegistry('SlotComponentRegistry');
  const globalRegistry = new ComponentRegistry('GlobalComponentRegistry');
  // TitleTools is a form component (both registries); PageOnly only a page slot component.
  slotRegistry.registerMany({ TitleTools, PageOnly });
  globalRegistry.register('TitleTools', TitleTools);
  const logged: SlotFailure[] = [];
  const onSaved = jest.fn();
  const onStored = jest.fn();
  render(
    <ApiClientProvider client={api.client}>
      <SlotRuntimeProvider
        runtime={{
          slotRegistry,
          globalRegistry,
          ...createSlotStatus({ log: (_message, failure) => logged.push(failure) }),
          showFailures: true,
        }}
      >
        <SlotSourceProvider source={createTestSlotSource(api)}>
          <UnsavedChangesProvider>
            <ResourceForm definition={form} record={shown ?? undefined} onSaved={onSaved} onStored={onStored} />
          </UnsavedChangesProvider>
        </SlotSourceProvider>
      </SlotRuntimeProvider>
    </ApiClientProvider>,
  );
  // Let the session's GET /me settle.
  await act(async () => undefined);
  return { logged, onSaved, onStored };
}

function meApi(roles?: string[]): FakeApi {
  const user = { username: 'admin', displayName: 'Admin', tenants: [], currentTenant: 'acme' };
  return createFakeApi({
    'GET /me': { body: { user: roles === undefined ? user : { ...user, roles } } },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
  });
}

describe('ResourceForm', () => {
  it('offers a viewer no Save, and says why instead; an editor and an account without a role get Save', async () => {
    await renderForm(meApi(['viewer']));
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(document.querySelector('[data-read-only-role]')?.textContent).toBe(VIEWER_CANNOT_CHANGE_RECORDS);
    // Values to read, not to change: the fields and the form slots' own controls are disabled.
    expect(screen.getByLabelText(/Title/).matches(':disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Copy upper-case' }).matches(':disabled')).toBe(true);
    cleanup();
    for (const roles of [['editor'], ['operator'], undefined]) {
      await renderForm(meApi(roles));
      expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
      expect(document.querySelector('[data-read-only-role]')).toBeNull();
      expect(screen.getByLabelText(/Title/).matches(':disabled')).toBe(false);
      cleanup();
    }
  });

  it('puts no nameless group around its fields: a screen reader announced "group" before the first one', async () => {
    await renderForm(meApi());
    expect(screen.queryAllByRole('group', { name: (name) => name === '' })).toEqual([]);
    // Still the one box that disables every field for a viewer (above).
    expect(screen.getByLabelText(/Title/).closest('fieldset')).not.toBeNull();
  });

  it('renders the fields and slot items in order', async () => {
    await renderForm(meApi());
    const form = document.querySelector('form') as HTMLFormElement;
    const order = [...form.querySelectorAll('[data-field], [data-form-slot]')].map(
      (node) => node.getAttribute('data-field') ?? `slot:${node.getAttribute('data-form-slot')}`,
    );
    expect(order).toEqual(['title', 'slot:TitleTools', 'slug', 'slot:PageOnly', 'group', 'slot:Nowhere', 'body']);
    expect((screen.getByLabelText(/Title/) as HTMLInputElement).name).toBe('title');
  });

  it('gives a form slot { resource, formContext, ...props } and lets it change the form', async () => {
    await renderForm(meApi());
    const tools = await screen.findByTestId('tools');
    expect(tools.textContent).toBe('articles|edit|Hello world|');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'New title' } });
    expect(tools.textContent).toBe('articles|edit|New title|');
    fireEvent.click(screen.getByRole('button', { name: 'Copy upper-case' }));
    expect((screen.getByLabelText('Slug') as HTMLInputElement).value).toBe('NEW TITLE');
  });

  it('warns once when a form slot writes a field the form does not have, which would not be saved', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await renderForm(meApi());
      fireEvent.click(await screen.findByRole('button', { name: 'Copy upper-case' }));
      expect(warn).not.toHaveBeenCalled();
      cleanup();
      const misnamed = definition.fields.map((item) =>
        item.type === 'slot' && item.component === 'TitleTools'
          ? { ...item, props: { source: 'title', target: 'slugg' } }
          : item,
      );
      await renderForm(meApi(), record, { ...definition, fields: misnamed });
      const copy = await screen.findByRole('button', { name: 'Copy upper-case' });
      fireEvent.click(copy);
      fireEvent.click(copy);
      expect(warn.mock.calls).toEqual([
        [
          '[slots] A form slot set "slugg" in the articles form, which has no such field: it is not saved. Check the ' +
            "slot's props (the field it writes) against the resource's fields.",
        ],
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it('resolves form slots only through the global registry: a page-only component does not render, and says why', async () => {
    const { logged } = await renderForm(meApi());
    expect(screen.queryByText('page-only component')).toBeNull();
    const pageOnly = document.querySelector('[data-form-slot="PageOnly"]') as HTMLElement;
    expect(within(pageOnly).getByRole('note').textContent).toContain(HOST_MESSAGES.notAFormComponent('PageOnly'));
    const nowhere = document.querySelector('[data-form-slot="Nowhere"]') as HTMLElement;
    expect(within(nowhere).getByRole('note').textContent).toContain(HOST_MESSAGES.unknownFormComponent('Nowhere'));
    await waitFor(() => expect(logged).toHaveLength(2));
    expect(logged).toEqual([
      expect.objectContaining({ location: 'form:articles', component: 'PageOnly', kind: 'not-a-form-component' }),
      expect.objectContaining({ location: 'form:articles', component: 'Nowhere', kind: 'unknown-component' }),
    ]);
  });

  it('saves with PUT and shows the field errors of a 400 answer', async () => {
    const api = meApi();
    api.routes.set('PUT /api/resources/articles/records/3', (request) => {
      const body = request.body as Record<string, unknown>;
      if (body.title === '') {
        return {
          status: 400,
          body: {
            error: { code: 'invalid_request', message: 'Invalid record.', fields: { title: 'Title is required.' } },
          },
        };
      }
      const { [UNCHANGED_FIELDS_KEY]: _unchanged, ...values } = body;
      return { body: { record: { ...record, ...values }, relations: [] } };
    });
    const { onSaved } = await renderForm(api);

    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Title is required.')).toBeTruthy();
    // The summary names the field, and focus is on it.
    expect(screen.getByRole('alert').textContent).toBe('1 field needs attention:Title: Title is required.');
    expect(document.activeElement).toBe(screen.getByLabelText(/Title/));
    expect(screen.getByLabelText(/Title/).getAttribute('aria-invalid')).toBe('true');
    // Form slots see the errors too.
    expect(screen.getByTestId('tools').textContent).toBe('articles|edit||title');
    expect(onSaved).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Fixed' } });
    expect(screen.queryByText('Title is required.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    const put = api.requests.filter((request) => request.method === 'PUT');
    expect(put).toHaveLength(2);
    // Only what the form changed, with the value it loaded: the other fields stay as the server holds them.
    expect(put.map((request) => request.body)).toEqual([
      { title: '', [UNCHANGED_FIELDS_KEY]: { title: 'Hello world' } },
      { title: 'Fixed', [UNCHANGED_FIELDS_KEY]: { title: 'Hello world' } },
    ]);
    expect(onSaved).toHaveBeenCalledWith({ record: expect.objectContaining({ title: 'Fixed' }), relations: [] });
  });

  it('says a save answered with a page that is not JSON (a proxy’s) failed, and keeps what was typed', async () => {
    const api = meApi();
    api.routes.set('PUT /api/resources/articles/records/3', proxyPage());
    const { onSaved } = await renderForm(api);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Changed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe(API_CLIENT_MESSAGES.unreadableChange);
    expect(screen.queryByText('Saved.')).toBeNull();
    expect(screen.getByLabelText(/Title/)).toHaveProperty('value', 'Changed');
    expect(onSaved).not.toHaveBeenCalled();
  });

  it.each([
    ['a proxy’s page for a host gone (502)', proxyPage(502)],
    ['a success cut off', proxyPage(201)],
  ])('says a create answered by %s may be made, and that pressing Create again is safe', async (_case, answer) => {
    const api = meApi();
    api.routes.set('POST /api/resources/articles/records', answer);
    await renderForm(api, null);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'New one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('alert')).textContent).toBe(CREATE_UNANSWERED_MESSAGE);
    expect(screen.getByLabelText(/Title/)).toHaveProperty('value', 'New one');
  });

  /** A PUT route that refuses, as the server does, a save whose `$ifUnchanged` no longer holds (409 `storedRecord`). */
  function storedRecordRoute(api: FakeApi, initial: ResourceRecord) {
    const server = { stored: initial };
    api.routes.set('PUT /api/resources/articles/records/3', (request) => {
      const { [UNCHANGED_FIELDS_KEY]: unchanged = {}, ...values } = request.body as Record<string, JsonValue>;
      const moved = Object.entries(unchanged as Record<string, JsonValue>).filter(
        ([name, value]) => (server.stored[name] ?? null) !== value,
      );
      if (moved.length > 0) {
        const fields = Object.fromEntries(moved.map(([name]) => [name, 'Saved since.']));
        return {
          status: 409,
          body: { error: { code: 'conflict', message: 'Saved since.', fields, storedRecord: server.stored } },
        };
      }
      server.stored = { ...server.stored, ...values };
      return { body: { record: server.stored, relations: [] } };
    });
    const puts = () => api.requests.filter((request) => request.method === 'PUT').map((request) => request.body);
    return { server, puts };
  }

  it('asks when the server refuses a field someone saved since the form loaded, then keeps theirs or saves over them', async () => {
    const api = meApi();
    const { server, puts } = storedRecordRoute(api, { ...record, title: 'Their title', body: 'Their body' });
    const { onStored } = await renderForm(api);
    const title = () => (screen.getByLabelText(/Title/) as HTMLInputElement).value;

    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'My title' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const conflict = await screen.findByRole('alert');
    // The page learns the record as stored now (its heading names their title).
    expect(onStored).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Their title' }));
    expect(conflict.textContent).toContain('someone saved another value of Title. Saving yours would replace theirs:');
    expect(within(conflict).getByRole('listitem').textContent).toBe('Title: theirs is “Their title”');
    expect(document.activeElement).toBe(conflict);
    expect(puts()).toEqual([{ title: 'My title', [UNCHANGED_FIELDS_KEY]: { title: 'Hello world' } }]);
    // Their change to a field this form left alone is shown at once; mine is still there to decide on.
    expect((screen.getByLabelText(/Body/) as HTMLTextAreaElement).value).toBe('Their body');
    expect(title()).toBe('My title');

    // Theirs: the field takes the stored value, and nothing is left to save in it.
    fireEvent.click(screen.getByRole('button', { name: 'Use their value' }));
    expect(title()).toBe('Their title');
    expect(screen.queryByRole('alert')).toBeNull();
    // The focus goes with the notice to the field that took their value, not to the page's top.
    expect(document.activeElement).toBe(screen.getByLabelText(/Title/));

    // Mine, over theirs: asked again (saved once more meanwhile), then saved as typed, expecting what was shown.
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'My title' } });
    server.stored = { ...server.stored, title: 'Their second title' };
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('alert');
    fireEvent.click(screen.getByRole('button', { name: 'Save mine anyway' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(puts().slice(1)).toEqual([
      { title: 'My title', [UNCHANGED_FIELDS_KEY]: { title: 'Their title' } },
      { title: 'My title', [UNCHANGED_FIELDS_KEY]: { title: 'Their second title' } },
    ]);
    expect(server.stored).toMatchObject({ title: 'My title', body: 'Their body' });
  });

  it('saves without asking when someone saved the very value this form saves', async () => {
    const api = meApi();
    const { server, puts } = storedRecordRoute(api, { ...record, title: 'Same title', slug: 'theirs' });
    await renderForm(api);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Same title' } });
    fireEvent.change(screen.getByLabelText(/Body/), { target: { value: 'My body' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    // Again on top of theirs: the title is theirs already, only the body is left to save.
    expect(puts()[1]).toEqual({ body: 'My body', [UNCHANGED_FIELDS_KEY]: { body: 'Text' } });
    expect(server.stored).toMatchObject({ title: 'Same title', slug: 'theirs', body: 'My body' });
    expect((screen.getByLabelText(/Slug/) as HTMLInputElement).value).toBe('theirs');
  });

  it('offers to restore a record deleted while it was edited, then saves the changes it kept', async () => {
    const UNTIL = Date.UTC(2025, 2, 15, 9, 0);
    const api = meApi();
    let deleted = true;
    api.routes.set('PUT /api/resources/articles/records/3', (request) => {
      if (!deleted) return { body: { record: { ...record, title: 'Kept' }, relations: [] } };
      const deletedRecord = { resource: 'articles', id: 3, restorableUntil: UNTIL };
      const message = `It was deleted meanwhile. Restore it (until ${restoreDeadlineInUtc(UNTIL)}), then save again.`;
      return { status: 404, body: { error: { code: 'not_found', message, deletedRecord } } };
    });
    api.routes.set('POST /api/resources/articles/records/3/restore', () => {
      deleted = false;
      return { body: { record, relations: [] } };
    });
    await renderForm(api);

    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Kept' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const notice = await screen.findByRole('alert');
    // The deadline in the reader's clock, as Recently deleted says it.
    expect(notice.textContent).toContain(
      `It was deleted meanwhile. Restore it (until ${instantInWords(UNTIL, readerLocales())}), then save again.`,
    );
    expect(document.activeElement).toBe(notice);
    fireEvent.click(within(notice).getByRole('button', { name: 'Restore it' }));
    expect(await screen.findByText('The article is back. Save to keep your changes.')).toBeTruthy();
    // The notice that had the focus is gone: Save, beside that status, has it.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));
    expect((screen.getByLabelText(/Title/) as HTMLInputElement).value).toBe('Kept');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toContain(
      'POST /api/resources/articles/records/3/restore',
    );
  });

  it('takes a record restored elsewhere meanwhile as back, when its Restore finds nothing to restore', async () => {
    const api = meApi();
    const deletedRecord = { resource: 'articles', id: 3, restorableUntil: Date.now() + 60_000 };
    api.routes.set('PUT /api/resources/articles/records/3', {
      status: 404,
      body: { error: { code: 'not_found', message: 'It was deleted meanwhile.', deletedRecord } },
    });
    api.routes.set('POST /api/resources/articles/records/3/restore', {
      status: 404,
      body: { error: { code: 'not_found', message: 'There is no deleted article 3 to restore.' } },
    });
    api.routes.set('GET /api/resources/articles/records/3', { body: { record, relations: [] } });
    await renderForm(api);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Kept' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Restore it' }));
    expect(await screen.findByText('The article is back. Save to keep your changes.')).toBeTruthy();
    expect(screen.queryByText(/There is no deleted/)).toBeNull();
    expect((screen.getByLabelText(/Title/) as HTMLInputElement).value).toBe('Kept');
  });

  it('creates with POST: empty values, form slots in create mode, onSaved once nothing is unsaved', async () => {
    const api = meApi();
    api.routes.set('POST /api/resources/articles/records', (request) => ({
      status: 201,
      body: { record: { id: 7, ...(request.body as Record<string, unknown>) }, relations: [] },
    }));
    const { onSaved } = await renderForm(api, null);
    const tools = await screen.findByTestId('tools');
    expect(tools.textContent).toBe('articles|create||');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Brand new' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Created.')).toBeTruthy();
    const posted = api.requests.filter((request) => request.method === 'POST');
    expect(posted.map((request) => request.body)).toEqual([{ title: 'Brand new', slug: '', group: '', body: '' }]);
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(onSaved).toHaveBeenCalledWith({
      record: expect.objectContaining({ id: 7, title: 'Brand new' }),
      relations: [],
    });
    // A second press does not create the record twice.
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});
