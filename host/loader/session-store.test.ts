import {
  HOST_REFRESH_EVENT,
  HOST_SESSION_EVENT,
  notInTenantMessage,
  type CurrentUser,
  type HostSessionDetail,
  type MePayload,
  SESSION_TENANT_HEADER,
  type RequestInitLike,
  type ResponseLike,
} from '../../shared';
import { createFakeApi, UNAUTHENTICATED, type FakeApi } from '../../testing/host/fake-api';
import { fakeTabWindow } from '../../testing/host/fake-broadcast-channel';
import { ApiError } from './api-client';
import { createPageClient, leftTenantMessage, SessionStore } from './session-store';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** One browser's session on the server, shared by its tabs: who is signed in, and in which tenant. */
function browserSession() {
  const state: { username: string | null; tenant: string; removedFrom: string[] } = {
    username: 'admin',
    tenant: 'acme',
    removedFrom: [],
  };
  const me = (): MePayload => {
    const user: CurrentUser = {
      username: state.username ?? '',
      displayName: state.username === 'admin' ? 'Admin' : 'Editor',
      tenants: [
        { id: 'acme', name: 'Acme Corp' },
        { id: 'globex', name: 'Globex' },
      ],
      currentTenant: state.tenant,
    };
    return { user };
  };
  /** A tab's client: its requests reach the one session. */
  const tab = (): FakeApi =>
    createFakeApi({
      'GET /me': () => (state.username === null ? UNAUTHENTICATED : { body: me() }),
      'POST /tenant': (request) => {
        state.tenant = (request.body as { tenant: string }).tenant;
        return { body: me() };
      },
      'POST /logout': () => {
        state.username = null;
        return { status: 204 };
      },
      'POST /login': (request) => {
        const { username, tenant } = request.body as { username: string; tenant?: string };
        if (tenant !== undefined && state.removedFrom.includes(tenant)) {
          return { status: 403, body: { error: { code: 'not_in_tenant', message: notInTenantMessage(tenant) } } };
        }
        state.username = username;
        return { body: me() };
      },
    });
  return { state, tab };
}

/** Two tabs of one browser, each with its session store following its window, as start-up makes them. */
async function twoTabs() {
  const session = browserSession();
  const apiA = session.tab();
  const apiB = session.tab();
  const a = new SessionStore(apiA.client);
  const b = new SessionStore(apiB.client);
  const windowA = fakeTabWindow();
  const windowB = fakeTabWindow();
  const stops = [a.listen(windowA), b.listen(windowB)];
  await Promise.all([a.refresh(), b.refresh()]);
  return { session, a, b, apiA, apiB, windowA, windowB, stop: () => stops.forEach((stop) => stop()) };
}

/** Lets the other tab hear the message, ask the server and settle. */
async function followed(): Promise<void> {
  for (let step = 0; step < 3; step += 1) await settle();
}

describe('SessionStore across the tabs of one browser', () => {
  it("follows a tenant switch made in another tab at once, keeping the page's unsaved work first", async () => {
    const { a, b, apiA, apiB, stop } = await twoTabs();
    try {
      const seenByKeepers: string[] = [];
      a.onExpire(() => seenByKeepers.push(a.snapshot().scope));
      expect(a.snapshot().scope).toBe('user:admin@acme');

      await b.switchTenant('globex');
      await followed();
      // Asked the server, kept the work while the page still showed acme, then showed globex.
      expect(apiA.count('GET', '/me')).toBe(2);
      expect(seenByKeepers).toEqual(['user:admin@acme']);
      expect(a.snapshot()).toMatchObject({
        scope: 'user:admin@globex',
        changedElsewhere: true,
        expired: false,
      });
      // Following is not a change of this tab's own: nothing is announced back.
      await followed();
      expect(apiB.count('GET', '/me')).toBe(1);
      expect(b.snapshot().changedElsewhere).toBe(false);
    } finally {
      stop();
    }
  });

  it("tells its window's remotes of the session it follows (HOST_SESSION_EVENT), once per change", async () => {
    const { a, b, windowA, stop } = await twoTabs();
    try {
      const told: (string | null)[] = [];
      windowA.addEventListener(HOST_SESSION_EVENT, (event) => {
        const { user } = (event as CustomEvent<HostSessionDetail>).detail;
        told.push(user === null ? null : `${user.username}@${user.currentTenant}`);
      });
      await b.switchTenant('globex');
      await followed();
      await a.refresh();
      await b.signOut();
      await followed();
      expect(told).toEqual(['admin@globex', null]);
    } finally {
      stop();
    }
  });

  it('signs in again in the tenant the page showed when its session ended; not after a sign-out, nor as another', async () => {
    const { session, a, apiA, stop } = await twoTabs();
    try {
      const loginBodies = () =>
        apiA.requests
          .filter((request) => request.method === 'POST' && request.path === '/login')
          .map((request) => request.body);
      await a.switchTenant('globex');
      // The session ends under the page (its idle limit): the server forgets its tenant.
      session.state.tenant = 'acme';
      a.expire();
      await followed();
      await a.signIn({ username: 'Admin', password: 'x' });
      expect(loginBodies()).toEqual([{ username: 'Admin', password: 'x', tenant: 'globex' }]);

      await a.signOut();
      await a.signIn({ username: 'admin', password: 'x' });
      await a.switchTenant('globex');
      a.expire();
      await followed();
      await a.signIn({ username: 'editor', password: 'x' });
      expect(loginBodies().slice(1)).toEqual([
        { username: 'admin', password: 'x' },
        { username: 'editor', password: 'x' },
      ]);
    } finally {
      stop();
    }
  });

  it('says so when the account left the tenant the page showed, and signs in next in its first', async () => {
    const { session, a, apiA, stop } = await twoTabs();
    try {
      await a.switchTenant('globex');
      session.state.tenant = 'acme';
      a.expire();
      await followed();
      // Removed from Globex while signed out: the server refuses it (it signed in to Acme without a word).
      session.state.removedFrom = ['globex'];
      const refused = await a.signIn({ username: 'admin', password: 'x' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 403, code: 'not_in_tenant', message: leftTenantMessage('Globex') });
      expect(a.snapshot()).toMatchObject({ status: 'anonymous', user: null });

      await a.signIn({ username: 'admin', password: 'x' });
      expect(a.snapshot()).toMatchObject({ status: 'authenticated', scope: 'user:admin@acme' });
      const logins = apiA.requests.filter((request) => request.method === 'POST' && request.path === '/login');
      expect(logins.map((request) => request.body)).toEqual([
        { username: 'admin', password: 'x', tenant: 'globex' },
        { username: 'admin', password: 'x' },
      ]);
    } finally {
      stop();
    }
  });

  it('ends the session of the other tabs at a sign-out, and follows a sign-in as someone else', async () => {
    const { a, b, stop } = await twoTabs();
    try {
      await b.signOut();
      await followed();
      expect(a.snapshot()).toMatchObject({
        status: 'anonymous',
        expired: true,
        ended: { cause: 'signed-out-elsewhere' },
        changedElsewhere: true,
      });
      // The tab that signed out ended nothing under its page.
      expect(b.snapshot()).toMatchObject({ status: 'anonymous', expired: false, ended: null });

      await b.signIn({ username: 'editor', password: 'x' });
      await followed();
      expect(a.snapshot()).toMatchObject({
        status: 'authenticated',
        identity: 'user:editor',
        changedElsewhere: true,
      });
    } finally {
      stop();
    }
  });

  it('says why the session ended in every tab when one of them can tell (its limit passed), and keeps the first word', async () => {
    const { session, a, b, stop } = await twoTabs();
    try {
      session.state.username = null; // the server ended it at its idle limit
      a.expire({ cause: 'idle', idleTimeoutMs: 900_000 });
      await followed();
      for (const tab of [a, b]) {
        expect(tab.snapshot()).toMatchObject({
          status: 'anonymous',
          expired: true,
          ended: { cause: 'idle', idleTimeoutMs: 900_000 },
        });
      }
      // A read refused at the same moment, which cannot tell why, does not take the cause away.
      a.expire();
      expect(a.snapshot()).toMatchObject({ expired: true, ended: { cause: 'idle' } });

      // Signed in again, the cause is gone with the ending; a 401 that cannot tell why says nothing of one.
      await a.signIn({ username: 'admin', password: 'x' });
      expect(a.snapshot()).toMatchObject({ status: 'authenticated', expired: false, ended: null });
      session.state.username = null;
      a.expire();
      expect(a.snapshot()).toMatchObject({ status: 'anonymous', expired: true, ended: null });
    } finally {
      stop();
    }
  });

  it('tells the others about a switch a remote made (HOST_REFRESH_EVENT), and nothing when nothing changed', async () => {
    const { session, a, apiA, windowB, stop } = await twoTabs();
    try {
      // A refresh that finds the same session tells nobody.
      windowB.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT));
      await followed();
      expect(apiA.count('GET', '/me')).toBe(1);

      // A remote in tab B switched the tenant with its own client, then asked the host to refresh.
      session.state.tenant = 'globex';
      windowB.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT));
      await followed();
      expect(apiA.count('GET', '/me')).toBe(2);
      expect(a.snapshot()).toMatchObject({ scope: 'user:admin@globex', changedElsewhere: true });
    } finally {
      stop();
    }
  });
});

describe('SessionStore when GET /me fails other than with a 401 (an outage)', () => {
  const ADMIN: MePayload = {
    user: { username: 'admin', displayName: 'Admin', tenants: [{ id: 'acme', name: 'Acme' }], currentTenant: 'acme' },
  };
  const UNAVAILABLE = {
    status: 503,
    body: { error: { code: 'unavailable', message: 'The service is temporarily unavailable. Try again shortly.' } },
  };
  const unreachable = () => {
    throw new TypeError('Failed to fetch');
  };
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it.each([
    ['answers 503', UNAVAILABLE, 503, 'unavailable'],
    ['cannot be reached', unreachable, 0, 'network'],
  ] as const)(
    'says so at the first load when the server %s, never that nobody is signed in',
    async (_case, route, status, code) => {
      const api = createFakeApi({ 'GET /me': route });
      const store = new SessionStore(api.client, api.client.get<MePayload>('/me'));
      await store.refresh();
      expect(store.snapshot()).toMatchObject({
        status: 'unavailable',
        user: null,
        expired: false,
        outage: { failures: 1, checking: false, error: { status, code } },
      });
      expect(store.snapshot().identity).not.toBe('anonymous');
    },
  );

  it('shows the sign-in page at a failed sign-out, saying why the session may live on, until the next change', async () => {
    const NOT_ENDED = { status: 503, body: { error: { code: 'unavailable', message: 'The session lives on.' } } };
    const api = createFakeApi({
      'GET /me': { body: ADMIN },
      'POST /logout': NOT_ENDED,
      'POST /login': { body: ADMIN },
    });
    const store = new SessionStore(api.client);
    await store.refresh();
    await store.signOut();
    expect(store.snapshot()).toMatchObject({
      status: 'anonymous',
      user: null,
      signOutFailure: { status: 503, code: 'unavailable', message: 'The session lives on.' },
    });
    await store.signIn({ username: 'admin', password: 'secret' });
    expect(store.snapshot().signOutFailure).toBeNull();

    // Unreachable, the same; a sign-out that worked says nothing.
    api.routes.set('POST /logout', unreachable);
    await store.signOut();
    expect(store.snapshot().signOutFailure).toMatchObject({ status: 0, code: 'network' });
    await store.signIn({ username: 'admin', password: 'secret' });
    api.routes.set('POST /logout', { status: 204 });
    await store.signOut();
    expect(store.snapshot()).toMatchObject({ status: 'anonymous', signOutFailure: null });
  });

  it('is checking while it tries again, counts the failures in a row, and goes on signed in once GET /me answers', async () => {
    const api = createFakeApi({ 'GET /me': UNAVAILABLE });
    const store = new SessionStore(api.client);
    await store.refresh();
    const asking = store.refresh();
    expect(store.snapshot()).toMatchObject({ status: 'unavailable', outage: { checking: true, failures: 1 } });
    await asking;
    expect(store.snapshot()).toMatchObject({ status: 'unavailable', outage: { checking: false, failures: 2 } });

    api.routes.set('GET /me', { body: ADMIN });
    await store.refresh();
    expect(store.snapshot()).toMatchObject({ status: 'authenticated', user: ADMIN.user, outage: null });
  });

  it('still shows a 401 as signed out, after an outage too', async () => {
    const api = createFakeApi({ 'GET /me': UNAUTHENTICATED });
    const store = new SessionStore(api.client);
    await store.refresh();
    expect(store.snapshot()).toMatchObject({ status: 'anonymous', outage: null });

    api.routes.set('GET /me', UNAVAILABLE);
    await store.refresh();
    expect(store.snapshot().status).toBe('unavailable');
    api.routes.set('GET /me', UNAUTHENTICATED);
    await store.refresh();
    expect(store.snapshot()).toMatchObject({ status: 'anonymous', outage: null });
  });

  it('forgets the user of a later refresh that fails, keeping the page’s unsaved work first', async () => {
    const api = createFakeApi({ 'GET /me': { body: ADMIN } });
    const store = new SessionStore(api.client);
    await store.refresh();
    const statusWhenKept: string[] = [];
    store.onExpire(() => statusWhenKept.push(store.snapshot().status));

    api.routes.set('GET /me', UNAVAILABLE);
    await store.refresh();
    expect(statusWhenKept).toEqual(['authenticated']);
    expect(store.snapshot()).toMatchObject({ status: 'unavailable', user: null, scope: 'unavailable' });
  });

  it('shows nothing protected on a page restored from the back/forward cache during an outage', async () => {
    const api = createFakeApi({ 'GET /me': { body: ADMIN } });
    const store = new SessionStore(api.client);
    const target = fakeTabWindow();
    const stop = store.listen(target);
    try {
      await store.refresh();
      api.routes.set('GET /me', unreachable);
      target.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      expect(store.snapshot()).toMatchObject({ status: 'loading', user: null });
      await settle();
      expect(store.snapshot()).toMatchObject({ status: 'unavailable', user: null, outage: { error: { status: 0 } } });
    } finally {
      stop();
    }
  });
});

describe("SessionStore and the page's client when the account leaves the tenant the page shows", () => {
  const TENANTS = [
    { id: 'acme', name: 'Acme Corp' },
    { id: 'globex', name: 'Globex' },
  ];
  /** The server: the account's tenants, the session's choice, and a fallback to the first when it leaves that one. */
  const server = { memberships: ['acme', 'globex'], chosen: 'acme' };
  const requests: string[] = [];
  const realFetch = globalThis.fetch;

  function current(): string {
    if (!server.memberships.includes(server.chosen)) server.chosen = server.memberships[0]!;
    return server.chosen;
  }
  /** An answer as the page's fetch gives it (jsdom has no Response): made in `tenant`, as the server says. */
  function reply(body: unknown, tenant: string): ResponseLike {
    const headers: Record<string, string> = { [SESSION_TENANT_HEADER]: tenant };
    return { ok: true, status: 200, headers: { get: (name) => headers[name] ?? null }, json: async () => body };
  }

  beforeEach(() => {
    server.memberships = ['acme', 'globex'];
    server.chosen = 'acme';
    requests.length = 0;
    globalThis.fetch = (async (url: string, init: RequestInitLike) => {
      requests.push(`${init.method} ${url}`);
      const tenant = current();
      if (url === '/me') {
        const user: CurrentUser = {
          username: 'admin',
          displayName: 'Admin',
          tenants: TENANTS.filter(({ id }) => server.memberships.includes(id)),
          currentTenant: tenant,
        };
        return reply({ user }, tenant);
      }
      return reply({ records: [`a record of ${tenant}`] }, tenant);
    }) as unknown as typeof fetch;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('refuses the reads answered in the tenant the server fell back to, follows the session once, and reads again there', async () => {
    const page = createPageClient();
    const session = new SessionStore(page.sessionClient);
    page.follow(session);
    await session.refresh();
    await expect(page.client.get('/api/resources/articles/records')).resolves.toEqual({
      records: ['a record of acme'],
    });
    let kept = 0;
    session.onExpire(() => kept++);

    // An administrator removes the account from acme: the server answers in globex, which the page does not show.
    server.memberships = ['globex'];
    const reads = await Promise.all(
      ['/api/resources/articles/records', '/api/resources/articles/records?page=2'].map((path) =>
        page.client.get(path).catch((error: unknown) => error),
      ),
    );
    for (const refused of reads) {
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 409, code: 'tenant_changed' });
    }
    await followed();
    // One GET /me for both refusals; the page's work kept before it moved; the session as the server has it.
    expect(requests.filter((request) => request === 'GET /me')).toHaveLength(2);
    expect(kept).toBe(1);
    expect(session.snapshot()).toMatchObject({ scope: 'user:admin@globex', changedElsewhere: true });
    await expect(page.client.get('/api/resources/articles/records')).resolves.toEqual({
      records: ['a record of globex'],
    });
  });

  it("asks the session's own requests in any tenant: GET /me answered in another is the session, not refused", async () => {
    const page = createPageClient();
    const session = new SessionStore(page.sessionClient);
    page.follow(session);
    await session.refresh();
    server.memberships = ['globex'];
    await session.refresh();
    expect(session.snapshot()).toMatchObject({ status: 'authenticated', scope: 'user:admin@globex' });
  });
});
