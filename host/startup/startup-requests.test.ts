import { createFakeApi, UNAUTHENTICATED } from '../../testing/host/fake-api';
import { startStartupRequests } from './startup-requests';

const SLOTS = { slots: { 'login-before-form': [{ component: 'LoginNotice', props: {} }] } };

describe('startStartupRequests', () => {
  it('asks for the session and, on the sign-in page, for the public slots at once', async () => {
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': { body: SLOTS } });
    const requests = startStartupRequests(fake.client, '/login');

    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /me', 'GET /slots']);
    await expect(requests.publicSlots).resolves.toEqual(SLOTS);
    await expect(requests.me).rejects.toMatchObject({ status: 401 });
  });

  it('makes no slots guess on other pages, where the visitor is probably signed in', () => {
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED });
    for (const path of ['/', '/resources/articles', '/login/extra', '/LOGIN']) {
      expect(startStartupRequests(fake.client, path).publicSlots).toBeNull();
    }
    expect(fake.count('GET', '/slots')).toBe(0);
    expect(fake.count('GET', '/me')).toBe(4);
  });

  it('never reports an unused failed request as an unhandled rejection', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': { status: 500, body: {} } });
      startStartupRequests(fake.client, '/login');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('starts GET /meta the moment GET /me says who is signed in, on every page but the sign-in page', async () => {
    const meta = { dashboards: [], modules: [], slots: {} };
    const fake = createFakeApi({ 'GET /me': { body: { user: { username: 'admin' } } }, 'GET /meta': { body: meta } });
    const requests = startStartupRequests(fake.client, '/resources/articles/4/edit');
    await expect(requests.meta).resolves.toEqual(meta);
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /me', 'GET /meta']);
    expect(startStartupRequests(fake.client, '/login').meta).toBeNull();
  });

  it('asks no GET /meta when nobody is signed in', async () => {
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /meta': { body: {} } });
    const requests = startStartupRequests(fake.client, '/');
    await expect(requests.meta).rejects.toMatchObject({ status: 401 });
    expect(fake.count('GET', '/meta')).toBe(0);
  });

  it('asks neither GET /me nor GET /meta on a page the server served with the session data', async () => {
    const session = {
      me: { user: { username: 'admin', displayName: 'Admin', tenants: [], currentTenant: 'acme' } },
      meta: { dashboards: [], modules: [], slots: {} },
    };
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /meta': { body: {} } });
    const requests = startStartupRequests(fake.client, '/resources/articles/4/edit', session);
    await expect(requests.me).resolves.toEqual(session.me);
    await expect(requests.meta).resolves.toEqual(session.meta);
    expect(requests.publicSlots).toBeNull();
    expect(fake.requests).toEqual([]);
  });
});
