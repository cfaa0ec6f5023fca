import request from 'supertest';
import {
  BOOT_DATA_ELEMENT_ID,
  SESSION_DATA_ELEMENT_ID,
  signOutNotEndedMessage,
  Slot,
  type BootData,
  type SessionBootData,
} from '../../shared';
import { createFixtureDist, exposeChunk, type FixtureDist } from '../../testing/server/fixture-dist';
import { createDemoApp, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';

/** A prop of a protected slot that would end the data element and run a script if it were not escaped. */
const HOSTILE = '</script><script>alert(1)</script><!-- & \u2028';

let dist: FixtureDist;
let testApp: DemoTestApp;

beforeEach(async () => {
  dist = createFixtureDist();
  dist.addHost({ remoteHints: true });
  dist.addRemote({ name: 'team_records', components: ['ProtectedNote', 'TenantSwitcher'], formComponents: [] });
  testApp = await createDemoApp({
    distDir: dist.dir,
    // The fixture remote provides two components: the demo's other slots are logged, not refused.
    slotProblems: 'log',
    configure: (app) => app.registerSlots({ 'dashboard-after-cards': Slot.make('ProtectedNote', { text: HOSTILE }) }),
  });
});

afterEach(async () => {
  jest.restoreAllMocks();
  await testApp.close();
  dist.remove();
});

const ELEMENT = new RegExp(`<script type="application/json" id="${SESSION_DATA_ELEMENT_ID}">(.*?)</script>`, 's');

function sessionElement(html: string): string | undefined {
  return ELEMENT.exec(html)?.[1];
}

/** The components the page's boot data names. */
function bootComponents(html: string): string[] {
  const boot = new RegExp(`id="${BOOT_DATA_ELEMENT_ID}">(.*?)</script>`, 's').exec(html)?.[1];
  return (JSON.parse(boot ?? '{"components":[]}') as BootData).components.map((item) => item.component);
}

describe('a page requested by a signed-in session', () => {
  it('carries what GET /me and GET /meta answer that session, escaped, and is neither cached nor shared', async () => {
    const agent = await signedInAgent(testApp.app);
    const page = await agent.get('/').expect(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.headers.vary).toMatch(/Cookie/);

    const inner = sessionElement(page.text);
    expect(inner).toBeDefined();
    // Nothing in it can close the element or start markup, yet it parses back to the same data.
    expect(inner).not.toMatch(/[<>&\u2028\u2029]/);
    expect(page.text).not.toContain(HOSTILE);
    const data = JSON.parse(inner ?? '') as SessionBootData;
    // The same answer, but for the time left, which runs on between the two requests.
    const me = (await agent.get('/me').expect(200)).body as SessionBootData['me'];
    expect({ ...data.me, session: undefined }).toEqual({ ...me, session: undefined });
    expect(data.me.session?.idleTimeoutMs).toBe(me.session?.idleTimeoutMs);
    expect(Math.abs((data.me.session?.idleEndsInMs ?? 0) - (me.session?.idleEndsInMs ?? -1))).toBeLessThan(5_000);
    expect(data.meta).toEqual((await agent.get('/meta').expect(200)).body);
    const protectedNote = data.meta.slots['dashboard-after-cards']?.find((slot) => slot.component === 'ProtectedNote');
    expect(protectedNote?.props).toEqual({ text: HOSTILE });
  });

  it('preloads the remote files of the slots the page renders for the user, protected ones included', async () => {
    const agent = await signedInAgent(testApp.app);
    const dashboard = (await agent.get('/').expect(200)).text;
    expect(dashboard).toContain(`<link rel="preload" href="/remotes/team_records/${exposeChunk('ProtectedNote')}"`);
    expect(dashboard).toContain(`<link rel="preload" href="/remotes/team_records/${exposeChunk('TenantSwitcher')}"`);
    // The record pages do not render dashboard-after-cards.
    const list = (await agent.get('/resources/articles').expect(200)).text;
    expect(list).not.toContain(exposeChunk('ProtectedNote'));
    expect(list).toContain(exposeChunk('TenantSwitcher'));
    expect(bootComponents(dashboard)).toEqual(expect.arrayContaining(['ProtectedNote', 'TenantSwitcher']));
  });
});

describe('a page requested by anyone else', () => {
  it.each([
    ['no cookie', undefined],
    ['a forged cookie', 'slots.sid=s%3Aforged.c2lnbmF0dXJl'],
  ])('with %s: public data only, saying nobody is signed in, cacheable by the browser', async (_label, cookie) => {
    for (const route of ['/', '/login', '/resources/articles/1/edit']) {
      const call = request(testApp.app.handler).get(route);
      const page = await (cookie ? call.set('Cookie', cookie) : call).expect(200);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers.vary).toMatch(/Cookie/);
      // The page need not ask GET /me for its 401 (nor GET /slots: signed-out-page.test.ts).
      expect(JSON.parse(sessionElement(page.text) ?? '')).toMatchObject({ me: null });
      // Nothing of the protected slots: not their data, not their components (the remote list is public).
      expect(page.text).not.toContain('alert(1)');
      expect(bootComponents(page.text)).not.toContain('ProtectedNote');
      expect(bootComponents(page.text)).not.toContain('TenantSwitcher');
      expect(page.text).not.toContain(exposeChunk('ProtectedNote'));
      expect(page.text).not.toContain(exposeChunk('TenantSwitcher'));
      // No user's data (the public slots name the demo account in a notice, so not the bare name).
      expect(page.text).not.toContain('"user":');
      expect(page.text).not.toContain('"tenants":');
    }
  });

  it('when the session store fails: the public page all the same, and the API says 503', async () => {
    const agent = await signedInAgent(testApp.app);
    jest.spyOn(testApp.app.sessions.store, 'get').mockImplementation((_sid, callback) => {
      callback(new Error('store down'));
    });
    const page = await agent.get('/').expect(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    // Nor said to be signed out: the session may well be there, and the page's GET /me says the store is down.
    expect(page.text).not.toContain(SESSION_DATA_ELEMENT_ID);
    expect(bootComponents(page.text)).not.toContain('ProtectedNote');
    await agent.get('/meta').expect(503);
  });

  it('when the session store fails: a browser opening /login or /logout gets the host page, the API JSON', async () => {
    const agent = await signedInAgent(testApp.app);
    const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    // Sign-out is a POST: a browser opening /logout gets the host's sign-out page (which asks first), the API a 405.
    const askFirst = await agent.get('/logout').set('Accept', html).expect(200);
    expect(askFirst.headers['content-type']).toMatch(/^text\/html/);
    expect(askFirst.text).toContain(SESSION_DATA_ELEMENT_ID);
    expect((await agent.get('/logout').expect(405)).body.error.code).toBe('method_not_allowed');
    jest.spyOn(testApp.app.sessions.store, 'get').mockImplementation((_sid, callback) => {
      callback(new Error('store down'));
    });
    const signInPage = await agent.get('/login').set('Accept', html).expect(200);
    expect(signInPage.headers['content-type']).toMatch(/^text\/html/);
    expect(signInPage.text).not.toContain(SESSION_DATA_ELEMENT_ID);
    const signOutPage = await agent.get('/logout').set('Accept', html).expect(200);
    expect(signOutPage.headers['content-type']).toMatch(/^text\/html/);
    expect(signOutPage.text).not.toContain(SESSION_DATA_ELEMENT_ID);
    await agent.head('/login').set('Accept', html).expect(200);
    // The API answers stay JSON: the store's failure is a 503.
    expect((await agent.post('/login').send({ username: 'admin', password: 'x' }).expect(503)).body.error.code).toBe(
      'unavailable',
    );
    expect((await agent.get('/me').set('Accept', html).expect(503)).body.error.code).toBe('unavailable');
    await agent.get('/logout').expect(405);
    // A sign-out cannot end the stored session, but the browser forgets it: the next person there is not signed in.
    const signOut = await agent.post('/logout').expect(503);
    expect(signOut.body.error).toEqual({ code: 'unavailable', message: signOutNotEndedMessage(30) });
    expect(signOut.headers['set-cookie']?.[0]).toMatch(/^slots\.sid=; Path=\/; Expires=Thu, 01 Jan 1970/);
    expect(signOut.headers['clear-site-data']).toBe('"cookies", "storage"');
  });

  it('after sign-out, the same cookie gets the public page', async () => {
    const agent = await signedInAgent(testApp.app);
    expect(sessionElement((await agent.get('/').expect(200)).text)).toBeDefined();
    await agent.post('/logout').expect(204);
    const page = await agent.get('/').expect(200);
    expect(JSON.parse(sessionElement(page.text) ?? '')).toMatchObject({ me: null });
    expect(bootComponents(page.text)).not.toContain('ProtectedNote');
  });
});
