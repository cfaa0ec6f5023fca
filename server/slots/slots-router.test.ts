import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { Field, Resource, ResourceDefinitionError } from '..';
import { Slot, SlotLocation, type SlotsPayload } from '../../shared';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { makeTempDir } from '../../testing/temp-dir';
import { SlotContractError } from './slot-contract';

describe('GET /slots', () => {
  let testApp: TestApp;

  beforeEach(async () => {
    testApp = await createTestApp();
  });

  afterEach(async () => {
    await testApp.close();
  });

  it('answers { slots: {} } when nothing is registered', async () => {
    const response = await request(testApp.app.handler).get('/slots');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({ slots: {} });
  });

  it('carries exactly the registered public locations, in registration order, for single and list registrations', async () => {
    const { app } = testApp;
    app.registerSlots({
      'login-sidebar': Slot.make('Promo', { title: 'p' }),
      'login-before-form': [
        Slot.make('LoginNotice', { title: 'a', text: 'b' }),
        Slot.make('Callout', { tone: 'info' }, 'hi'),
      ],
      'tenant-switcher': Slot.make('TenantSwitcher'),
    });
    app.registerSlots({
      'login-before-form': Slot.make('Third'),
      'header-banner': [Slot.make('Banner', { severity: 'warning' })],
    });

    const response = await request(app.handler).get('/slots');
    expect(response.status).toBe(200);
    const payload = response.body as SlotsPayload;
    expect(Object.keys(payload.slots)).toEqual(['login-sidebar', 'login-before-form', 'header-banner']);
    expect(payload).toEqual({
      slots: {
        'login-sidebar': [{ component: 'Promo', props: { title: 'p' } }],
        'login-before-form': [
          { component: 'LoginNotice', props: { title: 'a', text: 'b' } },
          { component: 'Callout', props: { tone: 'info' }, content: 'hi' },
          { component: 'Third', props: {} },
        ],
        'header-banner': [{ component: 'Banner', props: { severity: 'warning' } }],
      },
    });
  });

  it('never carries a protected location, whatever is registered', async () => {
    const { app } = testApp;
    for (const location of SlotLocation.cases()) {
      app.registerSlots({
        [location.value]: Slot.make(`Component_${location.name}`, { marker: `secret-of-${location.value}` }),
      });
    }
    const response = await request(app.handler).get('/slots');
    const text = response.text;
    const payload = JSON.parse(text) as SlotsPayload;
    expect(Object.keys(payload.slots).sort()).toEqual([...SlotLocation.publicValues()].sort());
    for (const location of SlotLocation.cases()) {
      if (location.isPublic()) {
        expect(text).toContain(`secret-of-${location.value}`);
        continue;
      }
      expect(text).not.toContain(`"${location.value}"`);
      expect(text).not.toContain(`secret-of-${location.value}`);
      expect(text).not.toContain(`Component_${location.name}`);
    }
  });

  it('leaves out a location whose only registration was an empty list', async () => {
    testApp.app.registerSlots({ 'login-sidebar': [] });
    expect((await request(testApp.app.handler).get('/slots')).body).toEqual({ slots: {} });
  });

  it('sends a strong ETag with Cache-Control: no-cache, and 304 without a body when it matches', async () => {
    const { app } = testApp;
    app.registerSlots({ 'login-sidebar': Slot.make('Promo') });
    const first = await request(app.handler).get('/slots');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');

    const again = await request(app.handler).get('/slots').set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);

    const weak = await request(app.handler).get('/slots').set('If-None-Match', `"other", W/${etag}`);
    expect(weak.status).toBe(304);

    const stale = await request(app.handler).get('/slots').set('If-None-Match', '"stale"');
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(first.body);
  });

  it('changes the ETag after a registration, so an old tag gets the new body', async () => {
    const { app } = testApp;
    app.registerSlots({ 'login-sidebar': Slot.make('Promo') });
    const before = await request(app.handler).get('/slots');
    app.registerSlots({ 'header-banner': Slot.make('Banner') });
    const after = await request(app.handler)
      .get('/slots')
      .set('If-None-Match', before.headers.etag as string);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(Object.keys((after.body as SlotsPayload).slots)).toEqual(['login-sidebar', 'header-banner']);
  });

  it('keeps the ETag when only a protected location changes (the public bytes are the same)', async () => {
    const { app } = testApp;
    app.registerSlots({ 'login-sidebar': Slot.make('Promo') });
    const before = await request(app.handler).get('/slots');
    app.registerSlots({ 'tenant-switcher': Slot.make('TenantSwitcher') });
    const after = await request(app.handler).get('/slots');
    expect(after.headers.etag).toBe(before.headers.etag);
  });

  it('builds the body once per registration change, not per request', async () => {
    const { app } = testApp;
    app.registerSlots({ 'login-sidebar': Slot.make('Promo') });
    const buildsBefore = app.slots.payload.builds;
    for (let i = 0; i < 5; i++) expect((await request(app.handler).get('/slots')).status).toBe(200);
    expect(app.slots.payload.builds).toBe(buildsBefore + 1);

    app.registerSlots({ 'header-banner': Slot.make('Banner') });
    for (let i = 0; i < 3; i++) await request(app.handler).get('/slots');
    expect(app.slots.payload.builds).toBe(buildsBefore + 2);
  });

  it('answers HEAD with the headers only', async () => {
    testApp.app.registerSlots({ 'login-sidebar': Slot.make('Promo') });
    const response = await request(testApp.app.handler).head('/slots');
    expect(response.status).toBe(200);
    expect(response.headers.etag).toBeTruthy();
    expect(response.text).toBeUndefined();
  });

  it('answers 405 JSON with Allow for other methods', async () => {
    const response = await request(testApp.app.handler).post('/slots').send({});
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.body.error.code).toBe('method_not_allowed');
  });

  it('needs no session and sets no cookie', async () => {
    testApp.app.registerSlots({ 'login-before-form': Slot.make('Notice', { text: 'anonymous' }) });
    for (const cookie of [undefined, 'slots.sid=s%3Aforged.signature']) {
      const call = request(testApp.app.handler).get('/slots');
      const response = await (cookie ? call.set('Cookie', cookie) : call);
      expect(response.status).toBe(200);
      expect((response.body as SlotsPayload).slots['login-before-form']).toContainEqual({
        component: 'Notice',
        props: { text: 'anonymous' },
      });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });
});

describe('app.registerSlots', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('returns the app, so calls chain', () => {
    const { app } = testApp;
    expect(
      app.registerSlots({ 'login-sidebar': Slot.make('A') }).registerSlots({ 'login-sidebar': Slot.make('B') }),
    ).toBe(app);
  });

  it('fails at once on an unknown location, naming it and listing the valid ones', () => {
    expect(() => testApp.app.registerSlots({ sidebar: Slot.make('A') } as never)).toThrow(
      /Unknown slot location "sidebar"\. Valid locations: login-before-form, login-after-form, .*tenant-switcher/,
    );
  });

  it('fails at once on a value that is not a Slot, naming the location', () => {
    expect(() => testApp.app.registerSlots({ 'header-banner': { component: 'Banner' } } as never)).toThrow(
      /"header-banner" is an object, not a Slot/,
    );
  });
});

describe('registrations after app.ready()', () => {
  const dir = makeTempDir('slots-late-registration-');
  const configFile = path.join(dir.path, 'remotes.json');
  let testApp: TestApp;

  beforeAll(async () => {
    // A remote that lists its components: known at once, no origin to ask.
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        remotes: [{ name: 'team_clock', entry: 'https://clock.example/remoteEntry.js', components: ['Clock'] }],
      }),
    );
    testApp = await createTestApp({ env: { REMOTES_CONFIG: configFile } });
  });

  afterAll(async () => {
    await testApp.close();
    dir.remove();
  });

  it('checks a slot as ready() does: one no remote provides is refused, and not served', async () => {
    expect(() => testApp.app.registerSlots({ 'header-banner': Slot.untyped('NoSuchComponent') })).toThrow(
      SlotContractError,
    );
    expect(() => testApp.app.registerSlots({ 'header-banner': Slot.untyped('NoSuchComponent') })).toThrow(
      /NoSuchComponent at header-banner\[0\] \(code\): no remote provides "NoSuchComponent"/,
    );
    expect((await request(testApp.app.handler).get('/slots').expect(200)).body).toEqual({ slots: {} });

    testApp.app.registerSlots({ 'header-banner': Slot.untyped('Clock') });
    expect((await request(testApp.app.handler).get('/slots').expect(200)).body).toEqual({
      slots: { 'header-banner': [{ component: 'Clock', props: {} }] },
    });
  });

  it('refuses a resource, whose relations and form slots ready() checks with the rest', () => {
    class Late extends Resource {
      readonly name = 'late';
      readonly label = 'Late';
      fields() {
        return [Field.text('title')];
      }
    }
    expect(() => testApp.app.registerResource(new Late())).toThrow(ResourceDefinitionError);
    expect(() => testApp.app.registerResource(new Late())).toThrow(
      new ResourceDefinitionError(
        'registerResource("late") after app.ready(): register resources before app.ready() (with startServer, in ' +
          'its `configure`), so that their relations and form slots are checked with the rest.',
      ),
    );
    expect(testApp.app.registerSlots({ 'login-sidebar': [] })).toBe(testApp.app);
  });
});
