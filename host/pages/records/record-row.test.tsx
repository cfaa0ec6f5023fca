import '../../../testing/host/router-globals';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ResourceRecord } from '../../../shared';
import { ARTICLES_DEFINITION, articlesPage } from '../../../testing/host/articles-fixture';
import { createFakeApi, type FakeResponse } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';

/**
 * The rows of a record list render again only when their record or selection changed: each holds two router links
 * and a delete button, and a page of them rendered again for every box ticked, and twice per page turned (the page
 * loading, then loaded), was most of a Next page's script in a throttled Chromium. Counted where a row renders its
 * cells (FieldValue, the real one), as the page's own Profiler cannot be read in a test.
 */
const cellRenders = jest.fn();
jest.mock('./field-value', () => {
  const actual: typeof import('./field-value') = jest.requireActual('./field-value');
  return {
    FieldValue: (props: Parameters<typeof actual.FieldValue>[0]) => {
      cellRenders();
      return actual.FieldValue(props);
    },
  };
});

const FIRST: ResourceRecord[] = [1, 2, 3].map((id) => ({ id, title: `Article ${id}`, label: `L${id}` }));
const SECOND: ResourceRecord[] = [4, 5].map((id) => ({ id, title: `Article ${id}`, label: `L${id}` }));

function renderList() {
  let answerSecond: (response: FakeResponse) => void = () => undefined;
  const first = articlesPage(FIRST);
  first.page = { ...first.page, next: 'c3' };
  const second = articlesPage(SECOND);
  second.page = { ...second.page, previous: 'c4' };
  const api = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/resources/articles': { body: { resource: ARTICLES_DEFINITION } },
    'GET /api/resources/articles/records': { body: first },
    'GET /api/resources/articles/records?after=c3': () =>
      new Promise<FakeResponse>((resolve) => {
        answerSecond = resolve;
      }),
  });
  renderAppAt(api, '/resources/articles');
  return { api, answerSecond: () => act(() => answerSecond({ body: second })) };
}

describe('the rows of a record list', () => {
  beforeEach(() => cellRenders.mockClear());

  it('render again only for the row whose box is ticked', async () => {
    renderList();
    const box = await screen.findByRole('checkbox', { name: 'Select Article 2' });
    cellRenders.mockClear();
    fireEvent.click(box);
    expect((box as HTMLInputElement).checked).toBe(true);
    // One row, one FieldValue column (label): the other rows are as they were.
    expect(cellRenders).toHaveBeenCalledTimes(1);
  });

  it('stay as they are while the next page loads, then only the new rows render', async () => {
    const { api, answerSecond } = renderList();
    await screen.findByRole('link', { name: 'Article 1' });
    cellRenders.mockClear();
    fireEvent.click(screen.getAllByRole('button', { name: /Next page/ })[0] as HTMLElement);
    await waitFor(() => expect(api.count('GET', '/api/resources/articles/records?after=c3')).toBe(1));
    expect(screen.getByRole('region', { name: 'Articles records' }).getAttribute('aria-busy')).toBe('true');
    expect(cellRenders).not.toHaveBeenCalled();
    await answerSecond();
    await screen.findByRole('link', { name: 'Article 4' });
    expect(cellRenders).toHaveBeenCalledTimes(SECOND.length);
  });
});
