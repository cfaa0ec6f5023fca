import '../../../testing/host/router-globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { RecordListPayload, ResourceRecord } from '../../../shared';
import { ARTICLES_DEFINITION, articlesPage } from '../../../testing/host/articles-fixture';
import { createFakeApi } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { describeRecordPage } from './describe-record-page';
import { addressSort } from './record-list-location';

/**
 * The order of a word search: best matches first by default (the server's), offered beside the list only while a
 * word search is applied; a column's sort instead from the headings, and back.
 */
const ROWS: ResourceRecord[] = [
  { id: 3, title: 'Lamp', label: 'A' },
  { id: 1, title: 'Desk lamps', label: 'B' },
];

/** The server's answer for each list asked: its sort as the server applies it (relevance with words by default). */
function answer(path: string): RecordListPayload {
  const query = new URLSearchParams(path.split('?')[1] ?? '');
  const search = query.get('search') ?? '';
  const payload = articlesPage(ROWS);
  payload.page = {
    ...payload.page,
    search,
    sort: query.get('sort') ?? (search ? 'relevance' : 'id'),
    order: query.get('order') === 'desc' ? 'desc' : 'asc',
  };
  return payload;
}

function renderList(at = '/resources/articles') {
  const api = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/resources/articles': { body: { resource: ARTICLES_DEFINITION } },
  });
  for (const path of [
    '/api/resources/articles/records',
    '/api/resources/articles/records?search=lamp',
    '/api/resources/articles/records?search=lamp&sort=title',
    '/api/resources/articles/records?search=lamp&sort=relevance',
    '/api/resources/articles/records?sort=title&order=desc',
    '/api/resources/articles/records?search=lamp&order=desc',
    '/api/resources/articles/records?order=desc',
  ]) {
    api.routes.set(`GET ${path}`, () => ({ body: answer(path) }));
  }
  renderAppAt(api, at);
  return api;
}

const relevanceButton = () => screen.queryByRole('button', { name: 'Best matches first' });

describe('sorting a word search', () => {
  it('lists best matches first by default, offers it only with words, and goes to a column and back', async () => {
    const api = renderList();
    await screen.findByRole('link', { name: 'Lamp' });
    expect(relevanceButton()).toBeNull();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search articles' }), { target: { value: 'lamp' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(relevanceButton()?.getAttribute('aria-pressed')).toBe('true'));
    // No sort asked: the server's default for words, said in the status line.
    expect(api.count('GET', '/api/resources/articles/records?search=lamp')).toBe(1);
    expect(screen.getByText('Showing 2 of 2 articles with the words “lamp”, best matches first.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Title' }));
    await waitFor(() => expect(relevanceButton()?.getAttribute('aria-pressed')).toBe('false'));
    expect(api.count('GET', '/api/resources/articles/records?search=lamp&sort=title')).toBe(1);

    fireEvent.click(relevanceButton() as HTMLElement);
    await waitFor(() => expect(relevanceButton()?.getAttribute('aria-pressed')).toBe('true'));
    expect(api.count('GET', '/api/resources/articles/records?search=lamp&sort=relevance')).toBe(1);

    // Cleared, the list goes back to its own order, and relevance is no longer offered.
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(relevanceButton()).toBeNull());
    expect(api.count('GET', '/api/resources/articles/records')).toBe(2);
  });

  it('drops a column’s order with its column when a word search starts: cleared, the list is not newest first', async () => {
    const api = renderList('/resources/articles?sort=title&order=desc');
    await screen.findByRole('link', { name: 'Lamp' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search articles' }), { target: { value: 'lamp' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(relevanceButton()?.getAttribute('aria-pressed')).toBe('true'));
    expect(api.count('GET', '/api/resources/articles/records?search=lamp')).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(relevanceButton()).toBeNull());
    expect(api.count('GET', '/api/resources/articles/records')).toBe(1);
    expect(api.count('GET', '/api/resources/articles/records?order=desc')).toBe(0);
  });

  it('keeps newest first (the id sort’s own order) across a word search and its clearing', async () => {
    const api = renderList('/resources/articles?order=desc');
    await screen.findByRole('link', { name: 'Lamp' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search articles' }), { target: { value: 'lamp' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(api.count('GET', '/api/resources/articles/records?search=lamp&order=desc')).toBe(1));
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(api.count('GET', '/api/resources/articles/records?order=desc')).toBe(2));
  });

  it('keeps a word search sorted by id on its next page (by relevance is the default)', async () => {
    const api = renderList('/resources/articles?search=lamp&sort=id');
    const first = '/api/resources/articles/records?search=lamp&sort=id';
    const next = '/api/resources/articles/records?search=lamp&sort=id&after=c1';
    api.routes.set(`GET ${first}`, () => {
      const payload = answer(first);
      payload.page = { ...payload.page, next: 'c1' };
      return { body: payload };
    });
    api.routes.set(`GET ${next}`, () => ({ body: answer(next) }));
    await screen.findByRole('link', { name: 'Lamp' });
    // The pager above the list and the one below: either.
    fireEvent.click(screen.getAllByRole('button', { name: 'Next page' })[0]!);
    await waitFor(() => expect(api.count('GET', next)).toBe(1));
    expect(addressSort({ search: 'lamp', sort: 'id' })).toBe('id');
    expect(addressSort({ search: 'lamp', sort: 'relevance' })).toBe('');
    expect(addressSort({ search: '', sort: 'id' })).toBe('');
    expect(addressSort({ search: '', sort: 'title' })).toBe('title');
  });

  it('offers neither the CSV file nor best matches first for a search matching nothing, and both again after', async () => {
    const api = renderList();
    const none = '/api/resources/articles/records?search=zzz';
    api.routes.set(`GET ${none}`, () => {
      const payload = articlesPage([]);
      payload.page = { ...payload.page, search: 'zzz', sort: 'relevance' };
      return { body: payload };
    });
    await screen.findByRole('link', { name: 'Lamp' });
    expect(screen.getByRole('link', { name: 'Download CSV' })).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search articles' }), { target: { value: 'zzz' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('No articles with the words “zzz”.');
    expect(screen.queryByRole('link', { name: 'Download CSV' })).toBeNull();
    expect(relevanceButton()).toBeNull();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search articles' }), { target: { value: 'lamp' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(relevanceButton()?.getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getByRole('link', { name: 'Download CSV' })).toBeTruthy();
  });

  it('says the relevance order in words', () => {
    const page = { ...articlesPage(ROWS).page, search: 'lamp', sort: 'relevance' };
    expect(describeRecordPage(page, 2, { one: 'article', many: 'articles' }, 'relevance')).toBe(
      'Showing 2 of 2 articles with the words “lamp”, best matches first.',
    );
  });
});
