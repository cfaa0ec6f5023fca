import request from 'supertest';
import { SESSION_DATA_ELEMENT_ID, Slot, type SignedOutBootData, type SlotsPayload } from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { createDemoApp, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';
import { jsonForHtml } from './boot-data';

/** A prop of a public slot that would end the data element and run a script if it were not escaped. */
const HOSTILE = '</script><script>alert(1)</script><!-- & \u2028';

let dist: FixtureDist;
let testApp: DemoTestApp;

beforeEach(async () => {
  dist = createFixtureDist();
  dist.addHost({ remoteHints: true });
  dist.addRemote({ name: 'team_records', components: ['PublicNote', 'ProtectedNote'], formComponents: [] });
  testApp = await createDemoApp({
    distDir: dist.dir,
    // The fixture remote provides two components: the demo's other slots are logged, not refused.
    slotProblems: 'log',
    configure: (app) =>
      app.registerSlots({
        'login-before-form': Slot.make('PublicNote', { text: HOSTILE }),
        // A tenant's own slot, and a protected one: neither is anybody's without a session.
        'dashboard-after-cards': [
          Slot.make('ProtectedNote', { text: 'everyone signed in' }),
          Slot.make('ProtectedNote', { text: 'acme only' }).placed({ visibleWhen: { tenants: ['acme'] } }),
        ],
      }),
  });
});

afterEach(async () => {
  await testApp.close();
  dist.remove();
});

const ELEMENT = new RegExp(`<script type="application/json" id="${SESSION_DATA_ELEMENT_ID}">(.*?)</script>`, 's');

function sessionElement(html: string): string | undefined {
  return ELEMENT.exec(html)?.[1];
}

describe('the page of a request without a session', () => {
  it('carries the very body GET /slots sends, escaped, so nothing in a prop can close the element', async () => {
    const page = await request(testApp.app.handler).get('/login').expect(200);
    const slots = await request(testApp.app.handler).get('/slots').expect(200);
    const inner = sessionElement(page.text);
    // The same bytes as GET /slots, escaped per character: nothing else, nothing reordered.
    expect(inner).toBe(`{"me":null,"slots":${jsonForHtml(slots.text)}}`);
    expect(inner).not.toMatch(/[<>&\u2028\u2029]/);
    expect(page.text).not.toContain(HOSTILE);
    const data = JSON.parse(inner ?? '') as SignedOutBootData;
    expect(data.me).toBeNull();
    expect(data.slots).toEqual(slots.body);
    const note = data.slots?.slots['login-before-form']?.find((slot) => slot.component === 'PublicNote');
    expect(note?.props).toEqual({ text: HOSTILE });
  });

  it('carries public locations only: no tenant’s slot, nothing protected', async () => {
    const page = await request(testApp.app.handler).get('/').expect(200);
    const data = JSON.parse(sessionElement(page.text) ?? '') as Required<SignedOutBootData>;
    expect(data.slots.slots['dashboard-after-cards']).toBeUndefined();
    expect(page.text).not.toContain('acme only');
    expect(page.text).not.toContain('everyone signed in');
    // While the signed-in member of acme gets both, in their own page's /meta data, and no public copy beside it.
    const agent = await signedInAgent(testApp.app);
    const signedIn = (await agent.get('/').expect(200)).text;
    expect(signedIn).toContain('acme only');
    expect(JSON.parse(sessionElement(signedIn) ?? '')).not.toHaveProperty('slots');
  });

  it('is never kept where it could show old slots: no-cache, no validator, new slots on the next page', async () => {
    const before = await request(testApp.app.handler).get('/login').expect(200);
    expect(before.headers['cache-control']).toBe('no-cache');
    expect(before.headers.vary).toMatch(/Cookie/);
    // Nothing to revalidate against: every use of a stored copy fetches the page again.
    expect(before.headers.etag).toBeUndefined();
    expect(before.headers['last-modified']).toBeUndefined();
    const builds = testApp.app.slots.payload.builds;
    await request(testApp.app.handler).get('/login').expect(200);
    // The cached GET /slots body, not one encoded per page.
    expect(testApp.app.slots.payload.builds).toBe(builds);

    testApp.app.registerSlots({ 'login-after-form': Slot.make('PublicNote', { text: 'added later' }) });
    const after = await request(testApp.app.handler).get('/login').expect(200);
    const slots = (await request(testApp.app.handler).get('/slots').expect(200)).body as SlotsPayload;
    expect(slots.slots['login-after-form']?.at(-1)?.props).toEqual({ text: 'added later' });
    expect((JSON.parse(sessionElement(after.text) ?? '') as SignedOutBootData).slots).toEqual(slots);
  });
});
