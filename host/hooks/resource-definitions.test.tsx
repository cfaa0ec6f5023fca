import '../../testing/host/router-globals';
import { act, fireEvent, screen } from '@testing-library/react';
import type { ResourceRecord } from '../../shared';
import { ARTICLES_DEFINITION, articlesPage } from '../../testing/host/articles-fixture';
import { createFakeApi, UNAUTHENTICATED } from '../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../testing/host/render-app';
import { RECORD_HANDOFF_MS } from './resource-definitions';

/**
 * What the record pages read once: a resource's definition per session (it was asked for at every visit of a list),
 * and the record the view page has just read, handed to the edit page opened from it (it was read again).
 */
const RECORD: ResourceRecord = { id: 7, title: 'Winter sale', label: 'W' };

function renderAt(path: string) {
  const api = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/resources/articles': { body: { resource: ARTICLES_DEFINITION } },
    'GET /api/resources/articles/records': { body: articlesPage([RECORD]) },
    'GET /api/resources/articles/records/7': { body: { record: RECORD, relations: [] } },
  });
  const { router } = renderAppAt(api, path);
  const go = (to: string) => act(() => router.navigate(to));
  return { api, go };
}

const titleBox = () => screen.findByRole('textbox', { name: /Title/ });

describe('a resource’s definition', () => {
  it('is read once in a session, however often its list and records are visited', async () => {
    const { api, go } = renderAt('/resources/articles');
    await screen.findByRole('link', { name: 'Winter sale' });
    await go('/resources/articles/7');
    await screen.findByRole('heading', { name: /Winter sale/ });
    await go('/resources/articles');
    await screen.findByRole('link', { name: 'Winter sale' });
    await go('/resources/articles/new');
    await titleBox();
    expect(api.count('GET', '/api/resources/articles')).toBe(1);
    // The records are the tenant's data, read at each visit.
    expect(api.count('GET', '/api/resources/articles/records')).toBe(2);
  });

  it('is read again after a sign-out, by whoever signs in next', async () => {
    let signedIn = true;
    const { api, go } = renderAt('/resources/articles');
    api.routes.set('GET /me', () => (signedIn ? { body: demoMe([]) } : UNAUTHENTICATED));
    api.routes.set('POST /logout', () => {
      signedIn = false;
      return { status: 204 };
    });
    api.routes.set('POST /login', () => {
      signedIn = true;
      return { body: demoMe([]) };
    });
    await screen.findByRole('link', { name: 'Winter sale' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    });
    fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    });
    await go('/resources/articles');
    await screen.findByRole('link', { name: 'Winter sale' });
    expect(api.count('GET', '/api/resources/articles')).toBe(2);
  });
});

describe('the record read by its view page', () => {
  afterEach(() => jest.useRealTimers());

  it('is the one the edit page opened from it starts from, once', async () => {
    const { api, go } = renderAt('/resources/articles/7');
    fireEvent.click(await screen.findByRole('link', { name: /^Edit/ }));
    expect(((await titleBox()) as HTMLInputElement).value).toBe('Winter sale');
    expect(api.count('GET', '/api/resources/articles/records/7')).toBe(1);

    // Opened again later (from the list): read again, as it may have changed since.
    await go('/resources/articles');
    await screen.findByRole('link', { name: 'Winter sale' });
    await go('/resources/articles/7/edit');
    await titleBox();
    expect(api.count('GET', '/api/resources/articles/records/7')).toBe(2);
  });

  it('is read again when the view page was left open longer than a moment', async () => {
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'setInterval', 'queueMicrotask', 'nextTick', 'setImmediate'] });
    const { api } = renderAt('/resources/articles/7');
    const edit = await screen.findByRole('link', { name: /^Edit/ });
    jest.setSystemTime(Date.now() + RECORD_HANDOFF_MS + 1);
    fireEvent.click(edit);
    await titleBox();
    expect(api.count('GET', '/api/resources/articles/records/7')).toBe(2);
  });
});
