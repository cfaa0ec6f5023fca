import type { CurrentUser, RemoteDescriptor } from '../../shared';
import { createFakeApi, UNAUTHENTICATED, type FakeRoute } from '../../testing/host/fake-api';
import { remotesFollowingSession } from './remotes-follow-session';
import { SessionStore } from './session-store';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const MEMBER: CurrentUser = {
  username: 'member',
  displayName: 'Member',
  tenants: [{ id: 'acme', name: 'Acme' }],
  currentTenant: 'acme',
};

/** The records remote served from release `version`, its tag signed with `signature`. */
function records(version: string, signature = 'c2lnbmVkLWJ5LWE'): RemoteDescriptor {
  return {
    name: 'team_records',
    entry: `/remotes/team_records/${version}/mf-manifest.json`,
    components: ['RecordsWidget'],
    formComponents: [],
    releaseTag: `${version}.${signature}`,
  };
}

const ACTIVE = records('1.0.0');
const CANARY = records('2.0.0');

/**
 * A page whose remotes were registered as `registered`, with its session store following the server's session (the
 * member signed in or not); GET /api/remotes answers the canary to the member when `canaryForMember`, else the active
 * release to everyone. POST /logout answers when `logoutAnswers` resolves.
 */
async function page({
  signedIn,
  registered,
  canaryForMember = true,
  logoutAnswers = Promise.resolve(),
}: {
  signedIn: boolean;
  registered: RemoteDescriptor[];
  canaryForMember?: boolean;
  logoutAnswers?: Promise<void>;
}) {
  const server = { user: signedIn ? MEMBER : null, canaryForMember };
  const remotesRoute: FakeRoute = () => ({
    body: { remotes: [server.user && server.canaryForMember ? CANARY : ACTIVE] },
  });
  const api = createFakeApi({
    'GET /me': () => (server.user ? { body: { user: server.user } } : UNAUTHENTICATED),
    'POST /login': () => {
      server.user = MEMBER;
      return { body: { user: MEMBER } };
    },
    'POST /logout': async () => {
      await logoutAnswers;
      server.user = null;
      return { status: 204 };
    },
    'GET /api/remotes': remotesRoute,
  });
  const reloads: string[] = [];
  const follower = remotesFollowingSession({ client: api.client, reload: () => reloads.push('reload') });
  const session = new SessionStore(api.client, null, (user) => follower.beforeSignedIn(user));
  follower.registered(registered);
  follower.follow(session);
  await session.refresh();
  return { api, server, session, reloads, remotesAsked: () => api.count('GET', '/api/remotes') };
}

describe('remotesFollowingSession', () => {
  it('signing out of a canary: asks the remotes once the server has ended the session, and loads the page again', async () => {
    let answerLogout!: () => void;
    const logoutAnswers = new Promise<void>((resolve) => (answerLogout = resolve));
    const { session, reloads, remotesAsked, api } = await page({ signedIn: true, registered: [CANARY], logoutAnswers });
    expect(remotesAsked()).toBe(0);

    const signedOut = session.signOut();
    await settle();
    // Shown signed out at once, but the session lives on the server until POST /logout answers: its releases yet.
    expect(session.snapshot().status).toBe('anonymous');
    expect(remotesAsked()).toBe(0);

    answerLogout();
    await signedOut;
    await settle();
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /me',
      'POST /logout',
      'GET /api/remotes',
    ]);
    expect(reloads).toEqual(['reload']);
  });

  it('signing out to the same releases keeps the page', async () => {
    const { session, reloads, remotesAsked } = await page({
      signedIn: true,
      registered: [ACTIVE],
      canaryForMember: false,
    });
    await session.signOut();
    await settle();
    expect(remotesAsked()).toBe(1);
    expect(reloads).toEqual([]);
  });

  it('a session that ended under the page keeps it, saying why: the next sign-in is checked', async () => {
    const { session, server, reloads, remotesAsked } = await page({ signedIn: true, registered: [CANARY] });
    server.user = null;
    session.expire();
    await settle();
    expect(session.snapshot()).toMatchObject({ status: 'anonymous', expired: true });
    expect([remotesAsked(), reloads]).toEqual([0, []]);
  });

  it('a scope its own sign-in checked is checked again when it comes back later (signed in in another tab)', async () => {
    const { session, server, reloads, remotesAsked } = await page({
      signedIn: false,
      registered: [ACTIVE],
      canaryForMember: false,
    });
    await session.signIn({ username: 'member', password: 'secret' });
    await session.signOut();
    await settle();
    expect([remotesAsked(), reloads]).toEqual([2, []]);

    // The canary starts for the member; another tab signs them in again, which this one follows.
    server.canaryForMember = true;
    server.user = MEMBER;
    await session.followSessionChange();
    await settle();
    expect(session.snapshot().status).toBe('authenticated');
    expect([remotesAsked(), reloads]).toEqual([3, ['reload']]);
  });
});

describe('remotesFollowingSession comparing releases', () => {
  /** A tenant switch on a page of `registered`, GET /api/remotes answering `answered`: whether the page reloads. */
  async function reloadsAfterSwitch(registered: RemoteDescriptor[], answered: unknown[]): Promise<string[]> {
    const api = createFakeApi({
      'GET /me': { body: { user: MEMBER } },
      'POST /tenant': { body: { user: { ...MEMBER, currentTenant: 'globex' } } },
      'GET /api/remotes': { body: { remotes: answered } },
    });
    const reloads: string[] = [];
    const follower = remotesFollowingSession({ client: api.client, reload: () => reloads.push('reload') });
    const session = new SessionStore(api.client);
    follower.registered(registered);
    follower.follow(session);
    await session.refresh();
    await session.switchTenant('globex');
    await settle();
    expect(api.count('GET', '/api/remotes')).toBe(1);
    return reloads;
  }

  it('by the version its tag names: another release reloads, the same one signed by another host does not', async () => {
    expect(await reloadsAfterSwitch([ACTIVE], [CANARY])).toEqual(['reload']);
    // While a session secret is rotated, two hosts sign the same release with their own first secret.
    expect(await reloadsAfterSwitch([ACTIVE], [records('1.0.0', 'b3RoZXItaG9zdA')])).toEqual([]);
  });

  it('keeps the page on an answer it cannot read whole (a remote dropped as malformed)', async () => {
    const marketing = { ...records('3.0.0'), name: 'team_marketing' };
    expect(await reloadsAfterSwitch([ACTIVE, marketing], [ACTIVE, { name: 'team_marketing' }])).toEqual([]);
    expect(await reloadsAfterSwitch([ACTIVE, marketing], [ACTIVE])).toEqual(['reload']);
  });
});
