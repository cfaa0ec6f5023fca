import '../../../testing/host/router-globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  UNCHANGED_FIELDS_KEY,
  type BulkRecordPayload,
  type BulkRecordRequest,
  type RecordListPage,
  type ResourceDefinition,
  type ResourceRecord,
} from '../../../shared';
import { ARTICLES_DEFINITION, articlesPage } from '../../../testing/host/articles-fixture';
import { createFakeApi, type FakeApi } from '../../../testing/host/fake-api';
import { fakeModalDialogs } from '../../../testing/host/modal-dialogs';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { describeAppliedFilter } from './filters-disclosure';

/**
 * Bulk actions on the list: the bar only while rows are selected; "Set on selected" asked again in the app's dialog,
 * then undone by setting each record's own earlier value back, the focus on Undo.
 */
const DEFINITION: ResourceDefinition = {
  ...ARTICLES_DEFINITION,
  fields: [
    ...ARTICLES_DEFINITION.fields,
    { type: 'field', name: 'label', label: 'Label', input: 'text', required: true },
    { type: 'field', name: 'group', label: 'Group', input: 'select', options: ['news', 'guides'] },
  ],
};

fakeModalDialogs();

function renderList(records: ResourceRecord[]): { api: FakeApi; bulk: BulkRecordRequest[] } {
  const bulk: BulkRecordRequest[] = [];
  const api = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/resources/articles': { body: { resource: DEFINITION } },
    'GET /api/resources/articles/records': () => ({ body: articlesPage(records) }),
    'POST /api/resources/articles/records/bulk': (request) => {
      const body = request.body as Extract<BulkRecordRequest, { action: 'update'; ids: number[] }>;
      bulk.push(body);
      // As the server does: a record whose fields of the precondition hold other values now is left as it is.
      const { [UNCHANGED_FIELDS_KEY]: unchanged = {}, ...values } = body.values;
      const payload: BulkRecordPayload = {
        results: body.ids.map((id) => {
          const record = records.find((each) => each.id === id) as ResourceRecord;
          if (Object.entries(unchanged as object).some(([name, value]) => (record[name] ?? null) !== value)) {
            return { id, ok: false, error: { code: 'conflict', message: 'Not saved.', storedRecord: { ...record } } };
          }
          // As the server does: a record left without its required label (saved before it was required) is refused.
          if (!record.label) {
            const error = { code: 'invalid_request' as const, message: 'Some fields are not valid.' };
            return { id, ok: false, error: { ...error, fields: { label: 'This field is required.' } } };
          }
          Object.assign(record, values);
          return { id, ok: true, record: { ...record } };
        }),
      };
      return { body: payload };
    },
  });
  renderAppAt(api, '/resources/articles');
  return { api, bulk };
}

/** Two articles of the news group, both set to guides from the bar: the records as the server holds them, and Undo. */
async function twoArticlesSetToGuides(): Promise<{ records: ResourceRecord[]; undo: HTMLElement }> {
  const records: ResourceRecord[] = [
    { id: 1, title: 'One', label: 'A', group: 'news' },
    { id: 2, title: 'Two', label: 'B', group: 'news' },
  ];
  renderList(records);
  fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all 2 on this page' }));
  fireEvent.change(screen.getByRole('combobox', { name: 'New value' }), { target: { value: 'guides' } });
  fireEvent.click(screen.getByRole('button', { name: 'Set on selected' }));
  const confirmation = screen.getByRole('dialog', { name: 'Set Group to guides on 2 articles?' });
  fireEvent.click(within(confirmation).getByRole('button', { name: 'Set' }));
  return { records, undo: await screen.findByRole('button', { name: 'Undo: set Group back' }) };
}

describe('setting a field on the selected rows', () => {
  it('shows the bar only with a selection, asks first, and undoes to each record’s own value', async () => {
    const records: ResourceRecord[] = [
      { id: 1, title: 'One', label: 'A', group: 'news' },
      { id: 2, title: 'Two', label: 'B' },
    ];
    const { bulk } = renderList(records);
    const all = (await screen.findByRole('checkbox', { name: 'Select all 2 on this page' })) as HTMLInputElement;
    expect(screen.queryByRole('button', { name: 'Set on selected' })).toBeNull();
    // One row ticked: the header's box is mixed, and the count is said.
    const selection = document.querySelector('[data-bulk-selection]');
    expect(selection?.getAttribute('role')).toBe('status');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select One' }));
    expect([all.checked, all.indeterminate, selection?.textContent]).toEqual([
      false,
      true,
      '1 article ticked for an action.',
    ]);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select One' }));
    expect([all.indeterminate, selection?.textContent]).toEqual([false, '']);
    fireEvent.click(all);
    expect([all.checked, all.indeterminate, selection?.textContent]).toEqual([
      true,
      false,
      '2 articles ticked for an action.',
    ]);
    fireEvent.change(screen.getByRole('combobox', { name: 'New value' }), { target: { value: 'guides' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set on selected' }));
    const confirmation = screen.getByRole('dialog', { name: 'Set Group to guides on 2 articles?' });
    expect(bulk).toEqual([]);
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Set' }));

    const undo = await screen.findByRole('button', { name: 'Undo: set Group back' });
    await waitFor(() => expect(document.activeElement).toBe(undo));
    expect(bulk).toEqual([{ action: 'update', ids: [1, 2], values: { group: 'guides' } }]);
    // Pressed twice on a slow link: undone once, and said so.
    fireEvent.click(undo);
    fireEvent.click(undo);
    await screen.findByText('Set Group back on 2 of 2 articles.');
    // Each record its own value again: one request per value they had (a value never set becomes empty).
    // Only where the field still holds the value set ($ifUnchanged).
    expect(bulk.slice(1)).toEqual([
      { action: 'update', ids: [1], values: { group: 'news', [UNCHANGED_FIELDS_KEY]: { group: 'guides' } } },
      { action: 'update', ids: [2], values: { group: null, [UNCHANGED_FIELDS_KEY]: { group: 'guides' } } },
    ]);
  });

  it('leaves a record someone changed since as it is, naming it with its value now, when undoing', async () => {
    const { records, undo } = await twoArticlesSetToGuides();
    // A colleague saves the second with no group since.
    delete records[1]?.group;

    fireEvent.click(undo);
    await screen.findByText('Set Group back on 1 of 2 articles.');
    expect(screen.getByText('“Two”: not set back, as its Group was changed since, to (empty).')).toBeTruthy();
    expect(records.map((record) => record.group)).toEqual(['news', undefined]);
  });

  it('says why a record refused when undoing is, by the field the server names', async () => {
    const { records, undo } = await twoArticlesSetToGuides();
    // The second lost its label since (an import, or a field made required after it was saved).
    if (records[1]) records[1].label = '';

    fireEvent.click(undo);
    await screen.findByText('Set Group back on 1 of 2 articles.');
    expect(screen.getByText('“Two”: Label: This field is required.')).toBeTruthy();
  });
});

describe('setting a required field', () => {
  it('offers its values alone, and names the field’s own message for a record refused', async () => {
    const definition: ResourceDefinition = {
      ...ARTICLES_DEFINITION,
      fields: [
        ...ARTICLES_DEFINITION.fields,
        {
          type: 'field',
          name: 'status',
          label: 'Status',
          input: 'select',
          options: ['open', 'closed'],
          required: true,
        },
      ],
    };
    const bulk: BulkRecordRequest[] = [];
    const api = createFakeApi({
      'GET /me': { body: demoMe([]) },
      'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
      'GET /api/resources/articles': { body: { resource: definition } },
      'GET /api/resources/articles/records': () => ({
        body: articlesPage([{ id: 1, title: 'One', label: 'A', status: 'open' }]),
      }),
      'POST /api/resources/articles/records/bulk': (request) => {
        bulk.push(request.body as BulkRecordRequest);
        // Refused as the server refuses a record whose title, required, was never set.
        const error = { code: 'invalid_request', message: 'Some fields are not valid.' } as const;
        const payload: BulkRecordPayload = {
          results: [{ id: 1, ok: false, error: { ...error, fields: { title: 'This field is required.' } } }],
        };
        return { body: payload };
      },
    });
    renderAppAt(api, '/resources/articles');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all 1 on this page' }));
    const values = screen.getByRole('combobox', { name: 'New value' });
    expect(
      within(values)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['open', 'closed']);

    fireEvent.click(screen.getByRole('button', { name: 'Set on selected' }));
    const confirmation = screen.getByRole('dialog', { name: 'Set Status to open on 1 article?' });
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Set' }));
    await screen.findByText('“One”: Title: This field is required.');
    expect(bulk).toEqual([{ action: 'update', ids: [1], values: { status: 'open' } }]);
  });
});

describe('setting a checkbox', () => {
  it('offers ticked or not alone: one never set reads as not ticked everywhere, so "(empty)" would be the same', async () => {
    const definition: ResourceDefinition = {
      ...ARTICLES_DEFINITION,
      fields: [...ARTICLES_DEFINITION.fields, { type: 'field', name: 'pinned', label: 'Pinned', input: 'checkbox' }],
    };
    const bulk: BulkRecordRequest[] = [];
    const api = createFakeApi({
      'GET /me': { body: demoMe([]) },
      'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
      'GET /api/resources/articles': { body: { resource: definition } },
      'GET /api/resources/articles/records': () => ({ body: articlesPage([{ id: 1, title: 'One', label: 'A' }]) }),
      'POST /api/resources/articles/records/bulk': (request) => {
        bulk.push(request.body as BulkRecordRequest);
        const payload: BulkRecordPayload = {
          results: [{ id: 1, ok: true, record: { id: 1, title: 'One', label: 'A' } }],
        };
        return { body: payload };
      },
    });
    renderAppAt(api, '/resources/articles');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all 1 on this page' }));
    const values = screen.getByRole('combobox', { name: 'New value' });
    expect(
      within(values)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Ticked', 'Not ticked']);
    fireEvent.click(screen.getByRole('button', { name: 'Set on selected' }));
    const confirmation = screen.getByRole('dialog', { name: 'Set Pinned to ticked on 1 article?' });
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Set' }));
    await waitFor(() => expect(bulk).toEqual([{ action: 'update', ids: [1], values: { pinned: true } }]));
  });
});

describe('acting on every match of the list, across pages', () => {
  /** A page of 2 of the 140 articles with the word "crate" in group news; the server's answers kept in `bulk`. */
  function renderMatches(total: { count: number; exact: boolean }, list: Partial<RecordListPage> = {}) {
    const bulk: BulkRecordRequest[] = [];
    const rows: ResourceRecord[] = [
      { id: 1, title: 'Crate one', label: 'A', group: 'news' },
      { id: 2, title: 'Crate two', label: 'B', group: 'news' },
    ];
    const ids = Array.from({ length: 140 }, (_, index) => index + 1);
    let shown = rows;
    const api = createFakeApi({
      'GET /me': { body: demoMe([]) },
      'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
      'GET /api/resources/articles': { body: { resource: DEFINITION } },
      'GET /api/resources/articles/records': () => {
        const payload = articlesPage(shown);
        // Every match deleted, the server counts none.
        const counted = shown.length === 0 ? { count: 0, exact: true } : total;
        payload.page = {
          ...payload.page,
          search: 'crate',
          filters: { group: 'news' },
          total: counted,
          next: 'n',
          ...list,
        };
        return { body: payload };
      },
      'POST /api/resources/articles/records/bulk': (request) => {
        const body = request.body as BulkRecordRequest;
        bulk.push(body);
        const reached = 'query' in body ? ids : body.ids;
        // Every match deleted: the list is empty until they are restored.
        if (body.action === 'delete') shown = [];
        if (body.action === 'restore') shown = rows;
        const payload: BulkRecordPayload = {
          results: reached.map((id) => ({
            id,
            ok: true,
            record: { id, title: `Crate ${id}`, label: 'L' },
            // Record 7 had a group of its own, the others none.
            ...(body.action === 'update' && 'query' in body ? { previous: { group: id === 7 ? 'guides' : null } } : {}),
          })),
        };
        return { body: payload };
      },
    });
    // The page says which list it is (as the server applied it), whatever address asked for it.
    renderAppAt(api, '/resources/articles');
    return bulk;
  }

  it('offers every match once the page is selected, says the count when asking, and undoes on every record', async () => {
    const bulk = renderMatches({ count: 140, exact: true });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all 2 on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select all 140 articles this list matches' }));
    expect(screen.getByText('All 140 articles this list matches are selected')).toBeTruthy();

    fireEvent.change(screen.getByRole('combobox', { name: 'New value' }), { target: { value: 'news' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set on selected' }));
    const confirmation = screen.getByRole('dialog', {
      name: 'Set Group to news on all 140 articles this list matches?',
    });
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Set' }));
    const undo = await screen.findByRole('button', { name: 'Undo: set Group back' });
    expect(bulk[0]).toEqual({
      action: 'update',
      query: { list: { search: 'crate', 'filter.group': 'news' }, count: 140 },
      values: { group: 'news' },
    });
    await screen.findByText('Changed 140 of 140 articles.');
    fireEvent.click(undo);
    await screen.findByText('Set Group back on 140 of 140 articles.');
    // Each its own earlier value, as the server answered it, by ids at most 100 a request.
    expect(
      bulk
        .slice(1)
        .map((request) => ['ids' in request ? request.ids.length : 0, 'values' in request && request.values]),
    ).toEqual([
      [100, { group: null, [UNCHANGED_FIELDS_KEY]: { group: 'news' } }],
      [39, { group: null, [UNCHANGED_FIELDS_KEY]: { group: 'news' } }],
      [1, { group: 'guides', [UNCHANGED_FIELDS_KEY]: { group: 'news' } }],
    ]);
  });

  it('deletes every match and restores them all in bulk requests of at most 100', async () => {
    const bulk = renderMatches({ count: 140, exact: true });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all 2 on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select all 140 articles this list matches' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    const confirmation = screen.getByRole('dialog', { name: 'Delete all 140 articles this list matches?' });
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Delete' }));
    // The list left empty keeps the outcome and its Undo.
    await screen.findByText('No articles with the words “crate”, filtered.');
    fireEvent.click(screen.getByRole('button', { name: 'Undo delete' }));
    await screen.findByText('Restored 140 of 140 articles.');
    expect(bulk.map((request) => [request.action, 'ids' in request ? request.ids.length : 'query'])).toEqual([
      ['delete', 'query'],
      ['restore', 100],
      ['restore', 40],
    ]);
  });

  it('names the sort with a starts-with search, as q matches the start of the sorted column', async () => {
    const bulk = renderMatches({ count: 140, exact: true }, { q: 'cr', search: '', sort: 'label' });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all 2 on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select all 140 articles this list matches' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    const confirmation = screen.getByRole('dialog', { name: 'Delete all 140 articles this list matches?' });
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Delete' }));
    await screen.findByRole('button', { name: 'Undo delete' });
    expect(bulk[0]).toEqual({
      action: 'delete',
      query: { list: { q: 'cr', sort: 'label', 'filter.group': 'news' }, count: 140 },
    });
  });

  it('goes back to the page alone on request, and past the bound says to narrow the list', async () => {
    renderMatches({ count: 140, exact: true });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all 2 on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select all 140 articles this list matches' }));
    fireEvent.click(screen.getByRole('button', { name: 'Only the 2 articles on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(screen.getByRole('dialog', { name: 'Delete 2 articles?' })).toBeTruthy();
  });

  it('keeps the focus in the bar when switching between every match and the page alone', async () => {
    renderMatches({ count: 140, exact: true });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all 2 on this page' }));
    // The button pressed goes with the switch: its counterpart, in its place, takes the focus (not the page's heading).
    const everyMatch = screen.getByRole('button', { name: 'Select all 140 articles this list matches' });
    everyMatch.focus();
    fireEvent.click(everyMatch);
    const onlyPage = screen.getByRole('button', { name: 'Only the 2 articles on this page' });
    expect(document.activeElement).toBe(onlyPage);
    fireEvent.click(onlyPage);
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Select all 140 articles this list matches' }),
    );
  });

  it('past what one action may reach, says to narrow the list instead', async () => {
    renderMatches({ count: 1000, exact: false });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all 2 on this page' }));
    expect(screen.queryByRole('button', { name: /this list matches/ })).toBeNull();
    expect(screen.getByText(/This list matches more than 1,000 articles: narrow it/)).toBeTruthy();
  });
});

describe('the filters applied, in words', () => {
  it('names each kind of filter with its value', () => {
    expect(describeAppliedFilter({ name: 'group', label: 'Group', kind: 'select', options: ['news'] }, 'news')).toBe(
      'Group: news',
    );
    expect(describeAppliedFilter({ name: 'featured', label: 'Featured', kind: 'checkbox' }, 'false')).toBe(
      'Featured: not ticked',
    );
    const days = { name: 'published', label: 'Published on', kind: 'dateRange' } as const;
    // Days as the list's cells write them, in the reader's form of the page's language.
    const british = ['en-GB', 'en'];
    expect(describeAppliedFilter(days, '2024-01-01..2024-06-30', undefined, british)).toBe(
      'Published on: 1 Jan 2024 to 30 Jun 2024',
    );
    expect(describeAppliedFilter(days, '2024-01-01..', undefined, british)).toBe('Published on: from 1 Jan 2024');
    expect(describeAppliedFilter(days, '..2024-06-30', undefined, ['en'])).toBe('Published on: until Jun 30, 2024');
  });
});
