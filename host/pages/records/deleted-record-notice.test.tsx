import '../../../testing/host/router-globals';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { RecordDeletedPayload, ResourceRecord } from '../../../shared';
import { ARTICLES_DEFINITION, articlesPage } from '../../../testing/host/articles-fixture';
import { createFakeApi, type FakeApi } from '../../../testing/host/fake-api';
import { fakeModalDialogs } from '../../../testing/host/modal-dialogs';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { deletedRecordOf, useDeletedRecord } from './deleted-record-notice';

/**
 * The undo window of a delete: the record deleted on its page reaches the list in the navigation's state (read once),
 * and Undo takes the focus and says what it undoes (its description is the notice's text), since the status, filled
 * as it appears, may go unread.
 */
const RECORD: ResourceRecord = { id: 7, title: 'Winter sale', label: 'W' };

fakeModalDialogs();

function renderList(): FakeApi {
  let deleted = false;
  const deletedPayload: RecordDeletedPayload = { deleted: RECORD, restorableUntil: Date.now() + 86_400_000 };
  const api = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/resources/articles': { body: { resource: ARTICLES_DEFINITION } },
    'GET /api/resources/articles/records': () => ({ body: articlesPage(deleted ? [] : [RECORD]) }),
    'DELETE /api/resources/articles/records/7': () => {
      deleted = true;
      return { body: deletedPayload };
    },
    'POST /api/resources/articles/records/7/restore': () => {
      deleted = false;
      return { body: { record: RECORD, relations: [] } };
    },
  });
  renderAppAt(api, '/resources/articles');
  return api;
}

describe('the notice of a record just deleted', () => {
  it('focuses Undo, described by what was deleted, and restores the record with it', async () => {
    const api = renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Winter sale' }));
    const confirmation = screen.getByRole('dialog', { name: 'Delete “Winter sale”?' });
    // The title in its own direction, isolated from the question's (a Hebrew title's “?” at its end, not the start).
    expect(confirmation.querySelector('bdi')?.textContent).toBe('Winter sale');
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Delete' }));

    const undo = await screen.findByRole('button', { name: 'Undo', description: 'Deleted “Winter sale”.' });
    await waitFor(() => expect(document.activeElement).toBe(undo));
    const status = document.getElementById(undo.getAttribute('aria-describedby') ?? '');
    expect(status?.getAttribute('role')).toBe('status');
    expect(status?.querySelector('bdi')?.textContent).toBe('Winter sale');

    fireEvent.click(undo);
    await waitFor(() => expect(status?.textContent).toBe('Restored “Winter sale”.'));
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(api.count('POST', '/api/resources/articles/records/7/restore')).toBe(1);
  });
});

describe('a record deleted on its page, in the navigation to the list', () => {
  it('is read from the state only when it is one', () => {
    expect(deletedRecordOf({ deleted: { resource: 'articles', record: RECORD } })).toEqual({
      resource: 'articles',
      record: RECORD,
    });
    for (const state of [
      undefined,
      null,
      'deleted',
      5,
      {},
      { deleted: null },
      { deleted: 'articles' },
      { deleted: { resource: 'articles' } },
      { deleted: { resource: 'articles', record: { ...RECORD, id: '7' } } },
      { deleted: { resource: 7, record: RECORD } },
    ]) {
      expect(deletedRecordOf(state)).toBeNull();
    }
  });

  it('is offered, and taken out of the history entry, which keeps its address', async () => {
    const seen: Array<string | null> = [];
    function List() {
      const [deleted] = useDeletedRecord();
      seen.push(deleted ? deleted.record.title : null);
      return null;
    }
    const router = createMemoryRouter([{ path: '/resources/articles', element: <List /> }], {
      initialEntries: [
        {
          pathname: '/resources/articles',
          search: '?q=win',
          hash: '#list',
          state: { deleted: { resource: 'articles', record: RECORD } },
        },
      ],
    });
    render(<RouterProvider router={router} />);
    await waitFor(() => expect(router.state.location.state).toBeNull());
    const { pathname, search, hash } = router.state.location;
    expect([pathname, search, hash]).toEqual(['/resources/articles', '?q=win', '#list']);
    expect(router.state.historyAction).toBe('REPLACE');
    // Still offered on this visit, once read.
    expect(seen.at(-1)).toBe('Winter sale');
  });
});

describe('a Delete confirmed after someone else deleted the record', () => {
  const GONE = 'The article “Winter sale” was deleted. It can be restored until 23:00 from Recently deleted.';
  const goneAnswer = {
    status: 404,
    body: {
      error: {
        code: 'not_found',
        message: GONE,
        deletedRecord: { resource: 'articles', id: 7, restorableUntil: Date.now() + 60_000 },
      },
    },
  };

  function renderAt(path: string): { api: FakeApi; goneNow(): void } {
    let gone = false;
    const api = createFakeApi({
      'GET /me': { body: demoMe([]) },
      'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
      'GET /api/resources/articles': { body: { resource: ARTICLES_DEFINITION } },
      'GET /api/resources/articles/records': () => ({ body: articlesPage(gone ? [] : [RECORD]) }),
      'GET /api/resources/articles/records/7': () => (gone ? goneAnswer : { body: { record: RECORD, relations: [] } }),
      'DELETE /api/resources/articles/records/7': goneAnswer,
    });
    renderAppAt(api, path);
    return { api, goneNow: () => (gone = true) };
  }

  it('closes the question on the list, says so in the server’s words and reads the list again', async () => {
    const { api, goneNow } = renderAt('/resources/articles');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Winter sale' }));
    goneNow();
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete “Winter sale”?' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await screen.findByText(GONE)).getAttribute('role')).toBe('status');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Winter sale' })).toBeNull());
    expect(api.count('GET', '/api/resources/articles/records')).toBe(2);
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('closes the question on the record page, which then shows the record deleted', async () => {
    const { goneNow } = renderAt('/resources/articles/7');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Winter sale' }));
    goneNow();
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete “Winter sale”?' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByText(GONE);
    expect(screen.queryByRole('button', { name: 'Delete Winter sale' })).toBeNull();
  });
});
