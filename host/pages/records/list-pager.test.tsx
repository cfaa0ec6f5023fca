import '../../../testing/host/router-globals';
import { fireEvent, screen } from '@testing-library/react';
import type { RecordListPayload, ResourceRecord } from '../../../shared';
import { articlesPage, ARTICLES_DEFINITION } from '../../../testing/host/articles-fixture';
import { createFakeApi } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';

/**
 * A list page reached by a cursor whose records were all deleted since (by this person, or by another while it was
 * bookmarked): the server has no record to page back from, so the page must neither say the tenant has no records
 * nor leave its reader without a way back.
 */
const FIRST: ResourceRecord = { id: 1, title: 'Launching the spring catalogue', label: 'Spring launch' };

/** A page of the articles sorted by title, as the server answers it: 25 counted in all. */
function list(records: ResourceRecord[], page: Partial<RecordListPayload['page']>): { body: RecordListPayload } {
  const answer = articlesPage(records);
  return { body: { ...answer, page: { ...answer.page, sort: 'title', total: { count: 25, exact: true }, ...page } } };
}

it('says where the records are and offers the first page, on a page past the end of the list', async () => {
  const api = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/resources/articles': { body: { resource: ARTICLES_DEFINITION } },
    'GET /api/resources/articles/records?sort=title&after=gone': list([], { offset: 25 }),
    'GET /api/resources/articles/records?sort=title': list([FIRST], { offset: 0, next: 'n' }),
  });
  renderAppAt(api, '/resources/articles?sort=title&after=gone');
  await screen.findByText('No articles on this page; the list holds 25 articles.');
  expect(screen.queryByText(/in this tenant yet/)).toBeNull();
  const first = screen.getAllByRole('button', { name: /First page/ });
  expect(first).toHaveLength(2);
  fireEvent.click(first[0]!);
  await screen.findByRole('link', { name: FIRST.title });
  expect(api.count('GET', '/api/resources/articles/records?sort=title')).toBe(1);
  expect(screen.queryByRole('button', { name: /First page/ })).toBeNull();
});
