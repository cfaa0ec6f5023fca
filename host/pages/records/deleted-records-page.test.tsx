import '../../../testing/host/router-globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  RECORD_RESTORE_WINDOW_MS,
  VIEWER_CANNOT_CHANGE_RECORDS,
  type DeletedRecordEntry,
  type DeletedRecordsPayload,
  type ResourceDefinition,
  type ResourceRecord,
} from '../../../shared';
import { ARTICLES_DEFINITION } from '../../../testing/host/articles-fixture';
import { createFakeApi, type FakeApi, type FakeRoute } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { instantInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';

/**
 * Recently deleted, without a browser: what the page lists and says, Restore and its refusals, the viewer's read-only
 * view, the way to it from the list, and the page of a record that was deleted.
 */
const DELETED_AT = Date.UTC(2025, 2, 14, 9, 30);

function entry(id: number, title: string, minutesAgo: number): DeletedRecordEntry {
  const record: ResourceRecord = { id, title, label: 'L' };
  const deletedAt = DELETED_AT - minutesAgo * 60_000;
  return { record, deletedAt, restorableUntil: deletedAt + RECORD_RESTORE_WINDOW_MS };
}
const NEWER = entry(12, 'Spring catalogue', 1);
const OLDER = entry(7, 'Winter sale', 30);

function renderAt(
  path: string,
  {
    roles = [],
    deleted = [NEWER, OLDER],
    definition = ARTICLES_DEFINITION,
    routes = {},
  }: {
    roles?: string[];
    deleted?: DeletedRecordEntry[];
    definition?: ResourceDefinition;
    routes?: Record<string, FakeRoute>;
  } = {},
): FakeApi {
  const payload: DeletedRecordsPayload = { deleted, limit: 100, more: false };
  const api = createFakeApi({
    'GET /me': { body: demoMe(roles) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/resources/articles': { body: { resource: definition } },
    'GET /api/resources/articles/records/deleted': { body: payload },
    'GET /api/resources/articles/records': {
      body: {
        records: [{ id: 1, title: 'Kept article', label: 'K' }],
        page: { sort: 'id', order: 'asc', limit: 25, q: '', search: '', filters: {}, total: { count: 1, exact: true } },
      },
    },
    ...routes,
  });
  renderAppAt(api, path);
  return api;
}

const rowOf = (title: string) => {
  const row = screen.getByRole('cell', { name: title }).closest('tr');
  if (!row) throw new Error(`no row of ${title}`);
  return row;
};

describe('the Recently deleted page', () => {
  it('opened by its address, says the admin is loading while its chunk loads, and React Router warns of nothing', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      renderAt('/resources/articles/deleted');
      // Before the page's own chunk is there, not a blank page: the boot status of index.html, kept.
      expect(screen.getByRole('status').textContent).toBe('Loading the admin…');
      await screen.findByRole('cell', { name: 'Spring catalogue' });
      expect(warn.mock.calls.map((call) => String(call[0]))).not.toContainEqual(
        expect.stringMatching(/HydrateFallback/),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('lists the deleted records newest first, with when deleted and until when each can be restored', async () => {
    renderAt('/resources/articles/deleted');
    expect(await screen.findByRole('heading', { level: 1, name: 'Recently deleted' })).toBeTruthy();
    await screen.findByRole('cell', { name: 'Spring catalogue' });
    expect(document.title).toMatch(/^Recently deleted · Articles/);
    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Articles' }).getAttribute('href')).toBe('/resources/articles');

    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'Spring catalogue',
      'Winter sale',
    ]);
    const times = [...rowOf('Spring catalogue').querySelectorAll('time')].map((time) => time.getAttribute('dateTime'));
    expect(times).toEqual([new Date(NEWER.deletedAt).toISOString(), new Date(NEWER.restorableUntil).toISOString()]);
    expect(screen.getByText('2 articles deleted, newest first.')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Restore / })).toHaveLength(2);
  });

  it('pages to older deletions past the first hundred, by an address of their own, and back to the newest', async () => {
    const cursor = `${OLDER.deletedAt}.7`;
    const oldest = entry(3, 'Autumn fair', 600);
    renderAt('/resources/articles/deleted', {
      routes: {
        'GET /api/resources/articles/records/deleted': {
          body: { deleted: [NEWER, OLDER], limit: 2, more: true, next: cursor },
        },
        [`GET /api/resources/articles/records/deleted?before=${encodeURIComponent(cursor)}`]: {
          body: { deleted: [oldest], limit: 2, more: false },
        },
      },
    });
    await screen.findByRole('cell', { name: 'Spring catalogue' });
    expect(
      screen.getByText('The 2 articles deleted most recently, newest first. Older deletions are on the next page.'),
    ).toBeTruthy();
    const older = screen.getByRole('link', { name: /Older deletions/ });
    expect(older.getAttribute('href')).toBe(`/resources/articles/deleted?before=${encodeURIComponent(cursor)}`);
    fireEvent.click(older);
    await screen.findByRole('cell', { name: 'Autumn fair' });
    expect(screen.queryByRole('cell', { name: 'Spring catalogue' })).toBeNull();
    expect(screen.getByText('1 article deleted earlier, newest first.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Older deletions/ })).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: /Newest deletions/ }));
    await screen.findByRole('cell', { name: 'Spring catalogue' });
  });

  it('keeps the focus in its pager from page to page, the page shown until the next is there', async () => {
    const cursor = `${OLDER.deletedAt}.7`;
    renderAt('/resources/articles/deleted', {
      routes: {
        'GET /api/resources/articles/records/deleted': {
          body: { deleted: [NEWER, OLDER], limit: 2, more: true, next: cursor },
        },
        [`GET /api/resources/articles/records/deleted?before=${encodeURIComponent(cursor)}`]: {
          body: { deleted: [entry(3, 'Autumn fair', 600)], limit: 2, more: false },
        },
      },
    });
    await screen.findByRole('cell', { name: 'Spring catalogue' });
    const older = screen.getByRole('link', { name: /Older deletions/ });
    older.focus();
    fireEvent.click(older);
    // While the older page loads, the page stays (a loading page in its place took the focus to its heading).
    expect(document.activeElement).toBe(older);
    await screen.findByRole('cell', { name: 'Autumn fair' });
    // The last page has no Older deletions: the pager's other way, Newest deletions, takes the focus.
    const newest = screen.getByRole('link', { name: /Newest deletions/ });
    expect(document.activeElement).toBe(newest);
    fireEvent.click(newest);
    await screen.findByRole('cell', { name: 'Spring catalogue' });
    expect(document.activeElement).toBe(screen.getByRole('link', { name: /Older deletions/ }));
  });

  it('restores a record: its row goes, and the status says so with a link to it, which takes the focus', async () => {
    const api = renderAt('/resources/articles/deleted', {
      routes: {
        'POST /api/resources/articles/records/7/restore': { body: { record: OLDER.record, relations: [] } },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Restore Winter sale' }));
    const link = await screen.findByRole('link', { name: 'Winter sale' });
    expect(link.getAttribute('href')).toBe('/resources/articles/7');
    expect(link.closest('[role="status"]')?.textContent).toContain('Restored “Winter sale”.');
    await waitFor(() => expect(document.activeElement).toBe(link));
    expect(screen.queryByRole('cell', { name: 'Winter sale' })).toBeNull();
    expect(screen.getByRole('cell', { name: 'Spring catalogue' })).toBeTruthy();
    expect(api.count('POST', '/api/resources/articles/records/7/restore')).toBe(1);
  });

  it('names the button by what it does while restoring, and says so in the status, for a screen reader', async () => {
    let answer: () => void = () => undefined;
    renderAt('/resources/articles/deleted', {
      routes: {
        'POST /api/resources/articles/records/7/restore': () =>
          new Promise((resolve) => {
            answer = () => resolve({ body: { record: OLDER.record, relations: [] } });
          }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Restore Winter sale' }));
    const button = await screen.findByRole('button', { name: 'Restoring Winter sale…' });
    expect(button.textContent).toBe('Restoring…');
    const status = button.closest('.page')?.querySelector('.list-status');
    expect(status?.getAttribute('role')).toBe('status');
    expect(status?.textContent).toContain('Restoring “Winter sale”…');
    // The other rows' buttons still say what they would do.
    expect(screen.getByRole('button', { name: 'Restore Spring catalogue' })).toBeTruthy();
    answer();
    await screen.findByRole('link', { name: 'Winter sale' });
    expect(status?.textContent).not.toContain('Restoring');
  });

  it("shows a refused restore in an alert beside the record's Restore, and keeps its row", async () => {
    const refusal =
      '“Winter sale” cannot be restored: it refers to author #3, deleted since. Restore that record first.';
    renderAt('/resources/articles/deleted', {
      routes: {
        'POST /api/resources/articles/records/7/restore': {
          status: 409,
          body: { error: { code: 'conflict', message: refusal } },
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Restore Winter sale' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(refusal);
    expect(rowOf('Winter sale').contains(alert)).toBe(true);
    expect(screen.queryByText(/^Restored/)).toBeNull();
  });

  it('says a record restored elsewhere meanwhile is back, with a link, and one past its day that it is gone', async () => {
    const gone = {
      status: 404,
      body: { error: { code: 'not_found', message: 'There is no deleted article.' } },
    };
    renderAt('/resources/articles/deleted', {
      routes: {
        'POST /api/resources/articles/records/7/restore': gone,
        'GET /api/resources/articles/records/7': { body: { record: OLDER.record, relations: [] } },
        'POST /api/resources/articles/records/12/restore': gone,
        'GET /api/resources/articles/records/12': {
          status: 404,
          body: { error: { code: 'not_found', message: 'No.' } },
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Restore Winter sale' }));
    const link = await screen.findByRole('link', { name: 'Winter sale' });
    expect(link.closest('[role="status"]')?.textContent).toContain('Restored already, elsewhere: “Winter sale”.');
    expect(screen.queryByRole('cell', { name: 'Winter sale' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Restore Spring catalogue' }));
    const past = '“Spring catalogue” can no longer be restored: its day since the delete is over.';
    expect(await screen.findByText((_, element) => element?.tagName === 'P' && element.textContent === past));
    expect(screen.queryByRole('cell', { name: 'Spring catalogue' })).toBeNull();
    expect(screen.getByText('No deleted articles to restore.'));
  });

  it('says when there is nothing to restore', async () => {
    renderAt('/resources/articles/deleted', { deleted: [] });
    expect(await screen.findByText('No deleted articles to restore.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a viewer the list without Restore, saying why', async () => {
    renderAt('/resources/articles/deleted', { roles: ['viewer'] });
    await screen.findByRole('cell', { name: 'Spring catalogue' });
    expect(screen.getByText(VIEWER_CANNOT_CHANGE_RECORDS)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Restore/ })).toBeNull();
  });
});

describe('the ways to Recently deleted', () => {
  it('is linked from the list where the resource allows deletes, for viewers too', async () => {
    renderAt('/resources/articles', { roles: ['viewer'] });
    const link = await screen.findByRole('link', { name: 'Recently deleted' });
    expect(link.getAttribute('href')).toBe('/resources/articles/deleted');
  });

  it('is not linked from the list of a resource without deletes', async () => {
    renderAt('/resources/articles', { definition: { ...ARTICLES_DEFINITION, canDelete: false } });
    await screen.findByRole('link', { name: 'Kept article' });
    expect(screen.queryByRole('link', { name: 'Recently deleted' })).toBeNull();
  });

  it.each(['/resources/articles/7', '/resources/articles/7/edit'])(
    "is where %s of a deleted record leads, saying the server's message, its deadline in the reader's clock",
    async (path) => {
      const said = (deadline: string) =>
        `The article “Winter sale” was deleted. It can be restored until ${deadline} from Recently ` +
        'deleted, on the Articles list.';
      const message = said('2025-03-15 09:00 UTC');
      renderAt(path, {
        routes: {
          'GET /api/resources/articles/records/7': {
            status: 404,
            body: {
              error: {
                code: 'not_found',
                message,
                deletedRecord: { resource: 'articles', id: 7, restorableUntil: OLDER.restorableUntil },
              },
            },
          },
        },
      });
      expect(await screen.findByRole('heading', { level: 1, name: 'Record deleted' })).toBeTruthy();
      // As Recently deleted says the moment: in English, in the reader's clock and zone, exactly on hover.
      const deadline = new Date(OLDER.restorableUntil);
      const paragraph = screen.getByText(/was deleted\. It can be restored until/);
      expect(paragraph.textContent).toBe(said(instantInWords(OLDER.restorableUntil, readerLocales())));
      const time = paragraph.querySelector('time')!;
      expect(time.getAttribute('dateTime')).toBe(deadline.toISOString());
      expect(time.getAttribute('title')).toBe('2025-03-15T09:00:00.000Z');
      expect(screen.getByRole('link', { name: 'Go to Recently deleted' }).getAttribute('href')).toBe(
        '/resources/articles/deleted',
      );
    },
  );

  it('is not offered by the page of a record that never was', async () => {
    renderAt('/resources/articles/99');
    expect(await screen.findByRole('heading', { level: 1, name: 'Not found' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Go to Recently deleted' })).toBeNull();
  });
});
