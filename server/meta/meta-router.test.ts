import { createHmac } from 'node:crypto';
import request from 'supertest';
import { ERROR_MESSAGES, Slot, SlotLocation, type MetaPayload } from '../../shared';
import { SqliteSessionStore } from '../storage/sqlite-session-store';
import {
  addUser,
  createDemoApp,
  createTestApp,
  DEMO_PASSWORD,
  sessionCookieOf,
  signedInAgent,
  TEST_SECRET,
  type TestApp,
} from '../../testing/server/test-app';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';

const UNAUTHENTICATED = { error: { code: 'unauthenticated', message: ERROR_MESSAGES.unauthenticated } };

/** A session cookie as express-session signs it (cookie-signature: HMAC-SHA256, base64 without padding). */
function signedCookie(sessionId: string, secret = TEST_SECRET): string {
  const signature = createHmac('sha256', secret).update(sessionId).digest('base64').replace(/=+$/, '');
  return `slots.sid=${encodeURIComponent(`s:${sessionId}.${signature}`)}`;
}

describe('GET /meta', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createDemoApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.app.handler);

  describe('without a valid session: 401 JSON', () => {
    it('with no cookie', async () => {
      const response = await http().get('/meta');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('with a forged cookie (unsigned, wrongly signed, or signed with another secret)', async () => {
      const login = await http().post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
      const real = sessionCookieOf(login) as string;
      const realId = decodeURIComponent(real.slice('slots.sid='.length)).slice(2).split('.')[0] as string;
      const forged = [
        'slots.sid=made-up-session-id',
        `slots.sid=${encodeURIComponent(`s:${realId}.not-the-signature`)}`,
        signedCookie(realId, 'another-secret-of-the-same-length!!'),
        signedCookie('made-up-session-id'),
        `${real}x`,
      ];
      for (const cookie of forged) {
        const response = await http().get('/meta').set('Cookie', cookie);
        expect(response.status).toBe(401);
        expect(response.body).toEqual(UNAUTHENTICATED);
      }
      expect((await http().get('/meta').set('Cookie', real)).status).toBe(200);
    });

    it('with the cookie from before sign-in (session fixation)', async () => {
      // A session planted before sign-in, e.g. by an attacker who got the victim to carry its cookie.
      const store = testApp.app.sessions.store as SqliteSessionStore;
      const plantedId = 'planted-session-id-0123456789';
      await new Promise<void>((resolve, reject) =>
        store.set(
          plantedId,
          { cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) } } as never,
          (error) => (error ? reject(error as Error) : resolve()),
        ),
      );
      const planted = signedCookie(plantedId);
      const stored = (id: string) =>
        new Promise<unknown>((resolve, reject) =>
          store.get(id, (error, session) => (error ? reject(error as Error) : resolve(session))),
        );
      expect(await stored(plantedId)).not.toBeNull();

      const login = await http()
        .post('/login')
        .set('Cookie', planted)
        .send({ username: 'admin', password: DEMO_PASSWORD });
      expect(login.status).toBe(200);
      const issued = sessionCookieOf(login) as string;
      expect(issued).toBeDefined();
      expect(issued).not.toBe(planted);

      // The planted session was taken up and replaced: it is gone from the store, and its cookie signs nobody in.
      expect(await stored(plantedId)).toBeNull();
      expect((await http().get('/meta').set('Cookie', planted)).status).toBe(401);
      expect((await http().get('/meta').set('Cookie', issued)).status).toBe(200);
    });

    it('with the cookie of an earlier sign-in of the same browser', async () => {
      const agent = request.agent(testApp.app.handler);
      const first = await agent.post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
      const firstCookie = sessionCookieOf(first) as string;
      const second = await agent.post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
      const secondCookie = sessionCookieOf(second) as string;
      expect(secondCookie).not.toBe(firstCookie);
      expect((await http().get('/meta').set('Cookie', firstCookie)).status).toBe(401);
      expect((await http().get('/meta').set('Cookie', secondCookie)).status).toBe(200);
    });

    it('after logout', async () => {
      const agent = await signedInAgent(testApp.app);
      expect((await agent.get('/meta')).status).toBe(200);
      await agent.post('/logout');
      const response = await agent.get('/meta');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
    });
  });

  it('when signed in: every registered location, dashboards and modules, private and not stored', async () => {
    const agent = await signedInAgent(testApp.app);
    const response = await agent.get('/meta');
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const payload = response.body as MetaPayload;
    expect(Object.keys(payload).sort()).toEqual(['dashboards', 'modules', 'slots']);
    expect(Object.keys(payload.slots).sort()).toEqual(
      SlotLocation.cases()
        .map((location) => location.value)
        .sort(),
    );
    expect(payload.slots['tenant-switcher']).toEqual([{ component: 'TenantSwitcher', props: {} }]);
    expect(payload.modules).toEqual([
      {
        name: 'content',
        label: 'Content',
        resources: [
          { name: 'articles', label: 'Articles' },
          { name: 'authors', label: 'Authors' },
        ],
      },
    ]);
    expect(payload.dashboards).toEqual([
      {
        name: 'overview',
        label: 'Overview',
        cards: [
          { title: 'Articles', value: 4 },
          { title: 'Authors', value: 3 },
          { title: 'Tenant', value: 'Acme Corp' },
        ],
      },
    ]);
  });

  it('shows the dashboard of the current tenant', async () => {
    const agent = await signedInAgent(testApp.app);
    await agent.post('/tenant').send({ tenant: 'globex' });
    const payload = (await agent.get('/meta')).body as MetaPayload;
    expect(payload.dashboards[0]?.cards).toEqual([
      { title: 'Articles', value: 3 },
      { title: 'Authors', value: 2 },
      { title: 'Tenant', value: 'Globex' },
    ]);
  });

  it('reuses cached parts: slots JSON per registry version, dashboards until records change', async () => {
    const agent = await signedInAgent(testApp.app);
    await agent.get('/meta');
    const slotBuilds = testApp.app.slots.payload.builds;
    const dashboardBuilds = testApp.app.meta.dashboards.builds;
    for (let i = 0; i < 4; i++) expect((await agent.get('/meta')).status).toBe(200);
    expect(testApp.app.slots.payload.builds).toBe(slotBuilds);
    expect(testApp.app.meta.dashboards.builds).toBe(dashboardBuilds);

    await testApp.app.records.insert('acme', 'authors', { title: 'New author', label: 'New' });
    const after = (await agent.get('/meta')).body as MetaPayload;
    expect(after.dashboards[0]?.cards[1]).toEqual({ title: 'Authors', value: 4 });
    expect(testApp.app.meta.dashboards.builds).toBe(dashboardBuilds + 1);

    testApp.app.registerSlots({ 'tenant-switcher': Slot.make('SecondSwitcher') });
    const withSlot = (await agent.get('/meta')).body as MetaPayload;
    expect(withSlot.slots['tenant-switcher']?.map((entry) => entry.component)).toEqual([
      'TenantSwitcher',
      'SecondSwitcher',
    ]);
    expect(testApp.app.slots.payload.builds).toBe(slotBuilds + 1);
  });

  it('answers 405 for other methods', async () => {
    const response = await http().post('/meta');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });
});

describe('GET /meta with exactly what was registered', () => {
  let testApp: TestApp;

  afterEach(async () => {
    await testApp.close();
  });

  it('carries every registered location, public and protected, in registration order, and leaves out empty ones', async () => {
    testApp = await createTestApp();
    const { app } = testApp;
    await addUser(app, 'solo', 'solo-password-123', ['solo']);
    app.registerSlots({
      'tenant-switcher': Slot.make('TenantSwitcher'),
      'login-sidebar': [Slot.make('A', { n: 1 }), Slot.make('B', { n: 2 })],
      'resource-page-actions': Slot.make('CopyLinkAction'),
    });
    const agent = await signedInAgent(app, 'solo', 'solo-password-123');
    const payload = (await agent.get('/meta')).body as MetaPayload;
    expect(payload).toEqual({
      dashboards: [],
      modules: [],
      slots: {
        'tenant-switcher': [{ component: 'TenantSwitcher', props: {} }],
        'login-sidebar': [
          { component: 'A', props: { n: 1 } },
          { component: 'B', props: { n: 2 } },
        ],
        'resource-page-actions': [{ component: 'CopyLinkAction', props: {} }],
      },
    });
  });
});

describe("GET /meta with an application's dashboards failing", () => {
  let testApp: TestApp;
  let dist: FixtureDist;

  afterEach(async () => {
    await testApp.close();
    dist.remove();
  });

  it('answers the navigation, the slots and the other dashboards, those failing unavailable', async () => {
    dist = createFixtureDist();
    dist.addHost({ remoteHints: true });
    // No remote is built here: the demo's slots are logged, not refused.
    testApp = await createDemoApp({ distDir: dist.dir, slotProblems: 'log' });
    const { app } = testApp;
    app.registerDashboard({ name: 'warehouse', label: 'Warehouse', cards: () => new Promise(() => undefined) });
    app.registerDashboard({ name: 'billing', label: 'Billing', cards: () => Promise.reject(new Error('down')) });
    const agent = await signedInAgent(app);

    const meta = await agent.get('/meta');
    expect(meta.status).toBe(200);
    const payload = meta.body as MetaPayload;
    expect(payload.modules.length).toBeGreaterThan(0);
    expect(Object.keys(payload.slots).length).toBeGreaterThan(0);
    const byName = new Map(payload.dashboards.map((dashboard) => [dashboard.name, dashboard]));
    expect(byName.get('warehouse')).toEqual({ name: 'warehouse', label: 'Warehouse', cards: [], unavailable: true });
    expect(byName.get('billing')).toEqual({ name: 'billing', label: 'Billing', cards: [], unavailable: true });
    // The demo's own dashboard still has its cards.
    expect(payload.dashboards.some((dashboard) => !dashboard.unavailable && dashboard.cards.length > 0)).toBe(true);

    // A signed-in page, which carries the same data, is answered too.
    const page = await agent.get('/resources/articles').set('Accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('{"name":"warehouse","label":"Warehouse","cards":[],"unavailable":true}');
  });
});
