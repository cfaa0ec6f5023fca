import { API_CLIENT_MESSAGES, HOST_REFRESH_EVENT, type MePayload, type SessionBootData } from '../../shared';
import { createFakeApi, UNAUTHENTICATED, type FakeApi, type FakeResponse } from '../../testing/host/fake-api';
import { createApiClient, type RequestInitLike, type ResponseLike } from './api-client';
import { HOST_MESSAGES } from './messages';
import { SlotSource } from './slot-source';

const SLOTS = { slots: { 'login-before-form': [{ component: 'LoginNotice', props: {} }] } };
const ME: MePayload = {
  user: {
    username: 'admin',
    displayName: 'Admin',
    tenants: [
      { id: 'acme', name: 'Acme' },
      { id: 'globex', name: 'Globex' },
    ],
    currentTenant: 'acme',
  },
};
const metaWith = (text: string) => ({
  dashboards: [],
  modules: [],
  slots: { 'dashboard-before-cards': [{ component: 'Text', props: { text } }] },
});

/** Lets the fake server answer and the stores settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const requested = (fake: FakeApi) => fake.requests.map((request) => `${request.method} ${request.path}`);
const shownText = (source: SlotSource) =>
  source.snapshot().slots['dashboard-before-cards']?.[0]?.props.text ?? source.snapshot().status;

/** A route answered only when the test says so. */
function held(answer: FakeResponse) {
  let release = () => undefined as void;
  const route = () => new Promise<FakeResponse>((resolve) => (release = () => resolve(answer)));
  return { route, release: () => release() };
}

describe('SlotSource: the requests started with the page', () => {
  it('asks for the session and, on the sign-in page, for the public slots at once', async () => {
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': { body: SLOTS } });
    const source = new SlotSource({ client: fake.client, pathname: '/login' });

    expect(requested(fake)).toEqual(['GET /me', 'GET /slots']);
    await expect(source.earlySlots).resolves.toEqual(SLOTS);
    expect(source.earlyMeta).toBeNull();
    await settle();
    // The early GET /slots answered the first load: nothing was asked again.
    expect(requested(fake)).toEqual(['GET /me', 'GET /slots']);
    expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'slots', slots: SLOTS.slots });
    expect(source.session.snapshot().status).toBe('anonymous');
  });

  it('asks nothing on a signed-in load of the sign-in page: its session data answers, no slots guess is made', async () => {
    const fake = createFakeApi({});
    const sessionData: SessionBootData = { me: ME, meta: metaWith('inline') };
    const source = new SlotSource({ client: fake.client, pathname: '/login', sessionData });
    expect(source.earlySlots).toBeNull();
    await settle();
    expect(requested(fake)).toEqual([]);
    expect(source.session.snapshot().status).toBe('authenticated');
    expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'meta' });
    expect(shownText(source)).toBe('inline');
  });

  it('makes no slots guess on other pages, where the visitor is probably signed in', () => {
    const fake = createFakeApi({ 'GET /me': { body: ME }, 'GET /meta': { body: metaWith('x') } });
    for (const path of ['/', '/resources/articles', '/login/extra', '/LOGIN']) {
      expect(new SlotSource({ client: fake.client, pathname: path }).earlySlots).toBeNull();
    }
    expect(fake.count('GET', '/slots')).toBe(0);
    expect(fake.count('GET', '/me')).toBe(4);
  });

  it('never reports an unused failed request as an unhandled rejection', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': { status: 500, body: {} } });
      jest.spyOn(console, 'error').mockImplementation(() => undefined);
      new SlotSource({ client: fake.client, pathname: '/login' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
      jest.restoreAllMocks();
    }
  });

  it('starts GET /meta the moment GET /me says who is signed in, and uses it for the first load', async () => {
    const meta = metaWith('early');
    const fake = createFakeApi({ 'GET /me': { body: ME }, 'GET /meta': { body: meta } });
    const source = new SlotSource({ client: fake.client, pathname: '/resources/articles/4/edit' });
    await expect(source.earlyMeta).resolves.toEqual(meta);
    await settle();
    expect(requested(fake)).toEqual(['GET /me', 'GET /meta']);
    expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'meta', meta: { dashboards: [], modules: [] } });
    expect(shownText(source)).toBe('early');
    expect(new SlotSource({ client: fake.client, pathname: '/login' }).earlyMeta).toBeNull();
  });

  it('asks no GET /meta when nobody is signed in, and loads the public slots instead', async () => {
    const fake = createFakeApi({
      'GET /me': UNAUTHENTICATED,
      'GET /meta': { body: {} },
      'GET /slots': { body: SLOTS },
    });
    const source = new SlotSource({ client: fake.client, pathname: '/' });
    await expect(source.earlyMeta).rejects.toMatchObject({ status: 401 });
    await settle();
    expect(requested(fake)).toEqual(['GET /me', 'GET /slots']);
    expect(source.snapshot().source).toBe('slots');
  });

  it.each(['/', '/login'])(
    'asks no GET /me on %s when the server said nobody is signed in: only the public slots, anonymous',
    async (pathname) => {
      const fake = createFakeApi({ 'GET /me': { body: ME }, 'GET /meta': { body: {} }, 'GET /slots': { body: SLOTS } });
      const source = new SlotSource({ client: fake.client, pathname, sessionData: { me: null } });
      await expect(source.earlyMeta ?? Promise.reject(new Error('none'))).rejects.toBeDefined();
      await settle();
      expect(requested(fake)).toEqual(['GET /slots']);
      expect(source.session.snapshot()).toMatchObject({ status: 'anonymous', user: null, expired: false });
      expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'slots' });
    },
  );

  it('asks neither GET /me nor GET /meta on a page the server served with the session data', async () => {
    const session: SessionBootData = { me: ME, meta: metaWith('inline') };
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /meta': { body: {} } });
    const source = new SlotSource({
      client: fake.client,
      pathname: '/resources/articles/4/edit',
      sessionData: session,
    });
    await expect(source.earlyMeta).resolves.toEqual(session.meta);
    expect(source.earlySlots).toBeNull();
    await settle();
    expect(fake.requests).toEqual([]);
    expect(source.session.snapshot()).toMatchObject({ status: 'authenticated', user: ME.user });
    expect(shownText(source)).toBe('inline');
  });

  it.each(['/', '/login'])(
    'loads only the public slots while GET /me fails (an outage) on %s, then GET /meta once it answers',
    async (pathname) => {
      jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      try {
        const unavailable = { status: 503, body: { error: { code: 'unavailable', message: 'Down.' } } };
        const fake = createFakeApi({
          'GET /me': unavailable,
          'GET /slots': { body: SLOTS },
          'GET /meta': { body: metaWith('after the outage') },
        });
        const source = new SlotSource({ client: fake.client, pathname });
        await settle();
        await settle();
        expect(source.session.snapshot().status).toBe('unavailable');
        // GET /slots reads no database: a store's outage leaves the public slots (a maintenance notice) on screen.
        expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'slots', meta: null });
        expect(source.snapshot().slots['login-before-form']?.[0]?.component).toBe('LoginNotice');
        // The sign-in page's early GET /slots answers it: one request either way.
        const before = requested(fake);
        expect(before).toEqual(['GET /me', 'GET /slots']);

        // The early GET /meta was never made: the load once GET /me answers asks the server.
        fake.routes.set('GET /me', { body: ME });
        await source.session.refresh();
        await settle();
        expect(requested(fake)).toEqual([...before, 'GET /me', 'GET /meta']);
        expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'meta' });
        expect(shownText(source)).toBe('after the outage');
      } finally {
        jest.restoreAllMocks();
      }
    },
  );

  it('gives out the failure of GET /slots too when the whole server is down, and loads again once it is back', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const unavailable = { status: 503, body: { error: { code: 'unavailable', message: 'Down.' } } };
      const fake = createFakeApi({ 'GET /me': unavailable, 'GET /slots': unavailable });
      const source = new SlotSource({ client: fake.client, pathname: '/login' });
      await settle();
      await settle();
      expect(source.snapshot()).toMatchObject({ status: 'error', source: 'slots' });
      // Each new try of GET /me asks for the public slots again: they come back as soon as the server does.
      await source.session.refresh();
      await settle();
      expect(fake.count('GET', '/slots')).toBe(2);

      fake.routes.set('GET /me', UNAUTHENTICATED);
      fake.routes.set('GET /slots', { body: SLOTS });
      await source.session.refresh();
      await settle();
      expect(source.session.snapshot().status).toBe('anonymous');
      expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'slots' });
      expect(fake.count('GET', '/slots')).toBe(3);
    } finally {
      jest.restoreAllMocks();
    }
  });
});

describe('SlotSource: following the session', () => {
  it('gives out loading until it is known who is signed in, and until the remotes are registered', async () => {
    const me = held({ body: ME });
    let remotesKnown = () => undefined as void;
    const remotesReady = new Promise<void>((resolve) => (remotesKnown = resolve));
    const fake = createFakeApi({ 'GET /me': me.route, 'GET /meta': { body: metaWith('x') } });
    const source = new SlotSource({ client: fake.client, pathname: '/', remotesReady });
    expect(source.snapshot().status).toBe('loading');
    me.release();
    await settle();
    // Signed in, but the remotes are not known: the early GET /meta waits unused.
    expect(source.session.snapshot().status).toBe('authenticated');
    expect(source.snapshot().status).toBe('loading');
    remotesKnown();
    await settle();
    expect(shownText(source)).toBe('x');
    expect(fake.count('GET', '/meta')).toBe(1);
  });

  it('never gives out data of another identity: a sign-out gives out loading at once', async () => {
    const fake = createFakeApi({
      'GET /me': { body: ME },
      'GET /meta': { body: metaWith('protected') },
      'POST /logout': { status: 204 },
      'GET /slots': held({ body: SLOTS }).route,
    });
    const source = new SlotSource({ client: fake.client, pathname: '/' });
    await settle();
    expect(shownText(source)).toBe('protected');
    const seen: string[] = [];
    source.subscribe(() => seen.push(`${source.snapshot().source}:${source.snapshot().status}`));

    void source.session.signOut();
    expect(source.snapshot()).toMatchObject({ status: 'loading', source: 'slots', meta: null });
    expect(source.snapshot().slots).toEqual({});
    expect(seen).toEqual(['slots:loading']);
    expect(fake.count('GET', '/slots')).toBe(1);
  });

  it('keeps the current data through a tenant switch or a refresh until the new data arrives', async () => {
    let text = 'acme';
    const fake = createFakeApi({
      'GET /me': { body: ME },
      'GET /meta': () => ({ body: metaWith(text) }),
      'POST /tenant': { body: { user: { ...ME.user, currentTenant: 'globex' } } },
    });
    const source = new SlotSource({ client: fake.client, pathname: '/' });
    await settle();
    expect(shownText(source)).toBe('acme');

    const meta = held({ body: metaWith('globex') });
    fake.routes.set('GET /meta', meta.route);
    await source.session.switchTenant('globex');
    expect(fake.count('GET', '/meta')).toBe(2);
    expect(shownText(source)).toBe('acme');
    meta.release();
    await settle();
    expect(shownText(source)).toBe('globex');

    text = 'refreshed';
    fake.routes.set('GET /meta', () => ({ body: metaWith(text) }));
    source.snapshot().refresh();
    expect(shownText(source)).toBe('globex');
    await settle();
    expect(shownText(source)).toBe('refreshed');
    expect(fake.count('GET', '/meta')).toBe(3);
  });

  it('does not give out the early GET /meta after a tenant switch made while it was in flight: it asks again', async () => {
    const acme = held({ body: metaWith('acme') });
    const fake = createFakeApi({
      'GET /me': { body: ME },
      'GET /meta': acme.route,
      'POST /tenant': { body: { user: { ...ME.user, currentTenant: 'globex' } } },
    });
    const source = new SlotSource({ client: fake.client, pathname: '/' });
    await settle();
    fake.routes.set('GET /meta', { body: metaWith('globex') });
    await source.session.switchTenant('globex');
    acme.release();
    await settle();
    expect(requested(fake)).toEqual(['GET /me', 'GET /meta', 'POST /tenant', 'GET /meta']);
    expect(shownText(source)).toBe('globex');
  });

  it('uses each early request for the first load of its kind only: a later sign-in asks the server', async () => {
    const fake = createFakeApi({
      'GET /me': UNAUTHENTICATED,
      'GET /slots': { body: SLOTS },
      'POST /login': { body: ME },
      'POST /logout': { status: 204 },
      'GET /meta': { body: metaWith('fresh') },
    });
    const source = new SlotSource({ client: fake.client, pathname: '/login' });
    await settle();
    expect(fake.count('GET', '/slots')).toBe(1);

    await source.session.signIn({ username: 'admin', password: 'secret' });
    await settle();
    expect(shownText(source)).toBe('fresh');
    await source.session.signOut();
    await settle();
    // Signed out again: the early GET /slots was used up, so the server is asked.
    expect(fake.count('GET', '/slots')).toBe(2);
    expect(source.snapshot().status).toBe('ready');
  });

  it('answers a sign-in made here with GET /meta before the session says signed in, then gives both out at once', async () => {
    const meta = held({ body: metaWith('protected') });
    const fake = createFakeApi({
      'GET /me': UNAUTHENTICATED,
      'GET /slots': { body: SLOTS },
      'POST /login': { body: ME },
      'GET /meta': meta.route,
    });
    const source = new SlotSource({ client: fake.client, pathname: '/login' });
    await settle();
    const seen: string[] = [];
    source.subscribe(() => seen.push(`${source.snapshot().source}:${source.snapshot().status}`));

    const signedIn = source.session.signIn({ username: 'admin', password: 'secret' });
    await settle();
    // Signed in on the server, GET /meta on its way: still signed out here, the public slots still given out.
    expect(requested(fake)).toEqual(['GET /me', 'GET /slots', 'POST /login', 'GET /meta']);
    expect(source.session.snapshot().status).toBe('anonymous');
    expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'slots', slots: SLOTS.slots });
    meta.release();
    await signedIn;
    expect(source.session.snapshot().status).toBe('authenticated');
    expect(shownText(source)).toBe('protected');
    // Never the signed-in session with no data: its GET /meta was asked once, and given out with it.
    expect(seen).toEqual(['meta:ready']);
    expect(fake.count('GET', '/meta')).toBe(1);
  });

  it('keeps the public slots while a signed-in session loads, and drops every slot at once on a sign-out', async () => {
    const meta = held({ body: metaWith('protected') });
    const fake = createFakeApi({
      'GET /me': UNAUTHENTICATED,
      'GET /slots': { body: SLOTS },
      'GET /meta': meta.route,
      'POST /logout': { status: 204 },
    });
    const source = new SlotSource({ client: fake.client, pathname: '/login' });
    await settle();
    // Signed in in another tab: this page follows, its GET /meta not asked before.
    fake.routes.set('GET /me', { body: ME });
    await source.session.followSessionChange();
    expect(source.session.snapshot().status).toBe('authenticated');
    expect(source.snapshot()).toMatchObject({ status: 'loading', source: 'meta', meta: null, slots: SLOTS.slots });
    meta.release();
    await settle();
    expect(shownText(source)).toBe('protected');

    fake.routes.set('GET /slots', held({ body: SLOTS }).route);
    void source.session.signOut();
    expect(source.snapshot()).toMatchObject({ status: 'loading', source: 'slots', meta: null, slots: {} });
  });

  it('reports a failed GET /meta of a sign-in once signed in, asking it once; a 401 there expires the session', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const fake = createFakeApi({
        'GET /me': UNAUTHENTICATED,
        'GET /slots': { body: SLOTS },
        'POST /login': { body: ME },
        'GET /meta': { status: 500, body: {} },
        'POST /logout': { status: 204 },
      });
      const source = new SlotSource({ client: fake.client, pathname: '/login' });
      await settle();
      await source.session.signIn({ username: 'admin', password: 'secret' });
      await settle();
      expect(source.session.snapshot().status).toBe('authenticated');
      expect(source.snapshot()).toMatchObject({ status: 'error', source: 'meta' });
      expect(error).toHaveBeenCalledTimes(1);
      expect(fake.count('GET', '/meta')).toBe(1);

      await source.session.signOut();
      await settle();
      fake.routes.set('GET /meta', UNAUTHENTICATED);
      await source.session.signIn({ username: 'admin', password: 'secret' });
      await settle();
      expect(source.session.snapshot()).toMatchObject({ status: 'anonymous', expired: true });
      expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'slots' });
    } finally {
      error.mockRestore();
    }
  });

  it('expires the session on a 401 from GET /meta, telling the expiry listeners while the session is still on', async () => {
    const fake = createFakeApi({
      'GET /me': { body: ME },
      'GET /meta': UNAUTHENTICATED,
      'GET /slots': { body: SLOTS },
    });
    const source = new SlotSource({ client: fake.client, pathname: '/' });
    const statusWhenTold: string[] = [];
    source.session.onExpire(() => statusWhenTold.push(source.session.snapshot().status));
    await settle();
    expect(statusWhenTold).toEqual(['authenticated']);
    expect(source.session.snapshot()).toMatchObject({ status: 'anonymous', expired: true });
    expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'slots' });
  });

  it('reports a failed load and gives out the error', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': { status: 500, body: {} } });
    const source = new SlotSource({ client: fake.client, pathname: '/' });
    await settle();
    expect(source.snapshot().status).toBe('error');
    expect(source.snapshot().error).not.toBeNull();
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });
});

/**
 * A fetch whose every GET /meta answers 200 at once, then waits with its body: the test sends it (`answer`) or cuts
 * it (`cut`) the way a browser does when the page navigates away (or the connection drops) while the body is still
 * arriving: reading it rejects with an AbortError that no signal of the page made. Aborting the request's own signal
 * cuts its body too, as a browser does.
 */
function metaHeldInFlight() {
  const bodies: { answer(body: unknown): void; cut(): void }[] = [];
  const fetch = (url: string, init: RequestInitLike): Promise<ResponseLike> => {
    if (url === '/me') return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(ME) });
    const body = new Promise<unknown>((answer, reject) => {
      const cut = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
      bodies.push({ answer, cut });
      (init.signal as AbortSignal | undefined)?.addEventListener('abort', cut);
    });
    return Promise.resolve({ ok: true, status: 200, json: () => body });
  };
  return { client: createApiClient(fetch), bodies };
}

describe('SlotSource: answers that are not a payload', () => {
  const carriedBadSlots = (warn: jest.SpyInstance) =>
    warn.mock.calls.filter(([line]) => String(line).includes('carried slots the host ignored'));
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('does not take a GET /meta cut off in flight (the page navigating away) for a payload with bad slots', async () => {
    const meta = metaHeldInFlight();
    const source = new SlotSource({ client: meta.client, pathname: '/' });
    await settle();
    expect(source.snapshot().status).toBe('loading');
    meta.bodies[0]!.cut();
    await settle();
    expect(carriedBadSlots(warn)).toEqual([]);
    // A load that failed, said as such: the page got no slot data, not slot data it had to drop.
    expect(source.snapshot()).toMatchObject({ status: 'error', error: API_CLIENT_MESSAGES.unreadable, slots: {} });
    expect(error.mock.calls).toEqual([
      [HOST_MESSAGES.slotDataFailureLog, { source: '/meta', error: API_CLIENT_MESSAGES.unreadable }],
    ]);
  });

  it('reports nothing for a superseded GET /meta whose body its abort cut, and shows the one that replaced it', async () => {
    const meta = metaHeldInFlight();
    const source = new SlotSource({ client: meta.client, pathname: '/' });
    await settle();
    meta.bodies[0]!.answer(metaWith('first'));
    await settle();
    expect(shownText(source)).toBe('first');

    source.snapshot().refresh();
    // Superseded while its body arrives: its abort cuts the body.
    source.snapshot().refresh();
    expect(meta.bodies).toHaveLength(3);
    await settle();
    meta.bodies[2]!.answer(metaWith('second'));
    await settle();
    expect(shownText(source)).toBe('second');
    expect(carriedBadSlots(warn)).toEqual([]);
    expect(error).not.toHaveBeenCalled();
  });

  it('still reports a payload whose slots are bad, and a null one', async () => {
    for (const body of [{ dashboards: [], modules: [], slots: 'nope' }, null]) {
      warn.mockClear();
      const fake = createFakeApi({ 'GET /me': { body: ME }, 'GET /meta': { body } });
      const source = new SlotSource({ client: fake.client, pathname: '/' });
      await settle();
      expect(source.snapshot()).toMatchObject({ status: 'ready', slots: {} });
      expect(warn.mock.calls).toEqual([['[slots] /meta carried slots the host ignored: `slots` is not an object.']]);
    }
    expect(error).not.toHaveBeenCalled();
  });
});

describe('SessionStore: the window', () => {
  it('loads the session again on HOST_REFRESH_EVENT, and forgets it at once on a back/forward-cache restore', async () => {
    const fake = createFakeApi({ 'GET /me': { body: ME }, 'GET /meta': { body: metaWith('x') } });
    const source = new SlotSource({ client: fake.client, pathname: '/' });
    const stop = source.session.listen(window);
    try {
      await settle();
      const revision = source.session.snapshot().revision;
      window.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT));
      await settle();
      expect(fake.count('GET', '/me')).toBe(2);
      expect(source.session.snapshot().revision).toBeGreaterThan(revision);

      // A page load of its own (persisted false) changes nothing.
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false }));
      expect(source.session.snapshot().status).toBe('authenticated');
      fake.routes.set('GET /me', UNAUTHENTICATED);
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      expect(source.session.snapshot()).toMatchObject({ status: 'loading', user: null });
      expect(source.snapshot().status).toBe('loading');
      await settle();
      expect(source.session.snapshot().status).toBe('anonymous');
    } finally {
      stop();
    }
    window.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT));
    expect(fake.count('GET', '/me')).toBe(3);
  });
});
