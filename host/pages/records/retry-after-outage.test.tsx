import '../../../testing/host/router-globals';
import { fireEvent, screen } from '@testing-library/react';
import { API_CLIENT_MESSAGES, type ResourceRecord } from '../../../shared';
import { createFakeApi, proxyPage, type FakeRoute } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';

/**
 * A page that asks for two things (the resource's definition and its records) loses both when the server is
 * unreachable, or when a proxy answers for it with an HTML page (no JSON, whatever its status): the page says so, and
 * one "Try again" once the server is back must bring the page, not the error of the request it did not repeat.
 */
const RECORD: ResourceRecord = { id: 7, title: 'Launching the spring catalogue', label: 'Spring launch' };
const DEFINITION = {
  resource: {
    name: 'articles',
    label: 'Articles',
    fields: [{ type: 'field', name: 'title', label: 'Title', input: 'text', required: true }],
    relations: [],
    listColumns: ['title'],
    sortableColumns: ['title'],
    searchableColumns: ['title'],
    canCreate: true,
    canDelete: true,
    filters: [],
  },
};
const LIST = {
  records: [RECORD],
  page: { sort: 'id', order: 'asc', q: '', search: '', filters: {}, previous: null, next: null, total: { count: 1 } },
};

const unreachable: FakeRoute = () => {
  throw new TypeError('Failed to fetch');
};

/** Each outage, and what the page says of it. */
const OUTAGES: ReadonlyArray<[string, FakeRoute, string]> = [
  ['unreachable', unreachable, API_CLIENT_MESSAGES.unreachable],
  ['answered by a proxy’s HTML page with status 200', proxyPage(200), API_CLIENT_MESSAGES.unreadable],
  ['answered by a proxy’s HTML page with status 502', proxyPage(502), API_CLIENT_MESSAGES.noAnswer(502)],
];

function renderDuringOutage(path: string, answers: Record<string, unknown>, outage: FakeRoute) {
  const api = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
  });
  for (const route of Object.keys(answers)) api.routes.set(route, outage);
  renderAppAt(api, path);
  return {
    api,
    serverBack: () => {
      for (const [route, body] of Object.entries(answers)) api.routes.set(route, { body });
    },
  };
}

describe.each(OUTAGES)('"Try again" after the server was %s', (_outage, outage, said) => {
  it('on a record page: one click asks again for everything that failed', async () => {
    const { api, serverBack } = renderDuringOutage(
      '/resources/articles/7',
      {
        'GET /api/resources/articles': DEFINITION,
        'GET /api/resources/articles/records/7': { record: RECORD, relations: [] },
      },
      outage,
    );
    expect((await screen.findByRole('alert')).textContent).toContain(said);
    serverBack();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: RECORD.title as string })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.count('GET', '/api/resources/articles/records/7')).toBe(2);
  });

  it('on a list: one click asks again for the definition and the records', async () => {
    const { api, serverBack } = renderDuringOutage(
      '/resources/articles',
      {
        'GET /api/resources/articles': DEFINITION,
        'GET /api/resources/articles/records': LIST,
      },
      outage,
    );
    expect((await screen.findByRole('alert')).textContent).toContain(said);
    serverBack();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: RECORD.title as string })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.count('GET', '/api/resources/articles/records')).toBe(2);
  });
});
