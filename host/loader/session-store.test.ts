import { HOST_REFRESH_EVENT, type CurrentUser, type MePayload } from '../../shared';
import { createFakeApi, UNAUTHENTICATED, type FakeApi } from '../../testing/host/fake-api';
import { fakeTabWindow } from '../../testing/host/fake-broadcast-channel';
import { SessionStore } from './session-store';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** One browser's session on the server, shared by its tabs: who is signed in, and in which tenant. */
function browserSession() {
  const state: { username: string | null; tenant: string } = { username: 'admin', tenant: 'acme' };
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
        state.username = (request.body as { username: string }).username;
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
  const windowB = fakeTabWindow();
  const stops = [a.listen(fakeTabWindow()), b.listen(windowB)];
  await Promise.all([a.refresh(), b.refresh()]);
  return { session, a, b, apiA, apiB, windowB, stop: () => stops.forEach((stop) => stop()) };
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
        changedInAnotherTab: true,
        expired: false,
      });
      // Following is not a change of this tab's own: nothing is announced back.
      await followed();
      expect(apiB.count('GET', '/me')).toBe(1);
      expect(b.snapshot().changedInAnotherTab).toBe(false);
    } finally {
      stop();
    }
  });

  it('ends the session of the other tabs at a sign-out, and follows a sign-in as someone else', async () => {
    const { a, b, stop } = await twoTabs();
    try {
      await b.signOut();
      await followed();
      expect(a.snapshot()).toMatchObject({ status: 'anonymous', expired: true, changedInAnotherTab: true });

      await b.signIn({ username: 'editor', password: 'x' });
      await followed();
      expect(a.snapshot()).toMatchObject({
        status: 'authenticated',
        identity: 'user:editor',
        changedInAnotherTab: true,
      });
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
      expect(a.snapshot()).toMatchObject({ scope: 'user:admin@globex', changedInAnotherTab: true });
    } finally {
      stop();
    }
  });
});
