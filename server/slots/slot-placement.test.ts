/**
 * Placements through the whole app: the order `/slots` and `/meta` carry, the registrations refused (cycle, duplicate
 * id, missing target, a user rule at a public location), and `visibleWhen` evaluated per request for `/meta` and a
 * signed-in page.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { EDITOR_ROLE, OPERATOR_ROLE, Slot, VIEWER_ROLE, type SlotEntry } from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import {
  addUser,
  createTestApp,
  signedInAgent,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';
import { RemotesConfigError } from '../config/remotes-config-error';
import { SlotContractError } from './slot-contract';
import { SlotRegistrationError } from './slot-registry';

const COMPONENTS = [
  'Banner',
  'Notice',
  'Footer',
  'OpsOnly',
  'AcmeOnly',
  'OpsAtAcme',
  'OpsOrAcme',
  'NotAcme',
  'EditorsOnly',
  'Tip',
];
const RULED = ['OpsOnly', 'AcmeOnly', 'OpsAtAcme', 'OpsOrAcme', 'NotAcme', 'EditorsOnly'];
const PASSWORD = 'correct horse battery';
const NO_FLAGS: ReadonlySet<string> = new Set();

let dist: FixtureDist;
let testApp: TestApp | null = null;

beforeEach(() => {
  dist = createFixtureDist();
  dist.addHost({ remoteHints: true });
  dist.addRemote({ name: 'team_place', components: COMPONENTS, formComponents: [] });
});
afterEach(async () => {
  await testApp?.close();
  testApp = null;
  dist.remove();
});

async function start(configure: TestAppOptions['configure'], env: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  testApp = await createTestApp({ distDir: dist.dir, env, configure });
  return testApp;
}

const names = (entries: SlotEntry[] | undefined) => (entries ?? []).map((entry) => entry.component);

describe('the order of a location', () => {
  it('is carried by /slots and /meta: priorities, then before/after, code and configuration together', async () => {
    const config = dist.write(
      'remotes.json',
      JSON.stringify({
        remotes: [
          {
            name: 'team_place',
            slots: {
              'header-banner': [
                { component: 'Tip', priority: 10 },
                { component: 'Footer', after: 'banner' },
              ],
              'dashboard-before-cards': [{ component: 'Tip', id: 'tip', before: 'Notice' }],
            },
          },
        ],
      }),
    );
    const { app } = await start(
      (app) =>
        app.registerSlots({
          'header-banner': [Slot.make('Notice'), Slot.make('Banner').placed({ id: 'banner', priority: 60 })],
          'dashboard-before-cards': [Slot.make('Banner'), Slot.make('Notice'), Slot.make('Footer')],
        }),
      { REMOTES_CONFIG: config },
    );
    const slots = await request(app.handler).get('/slots').expect(200);
    expect(names(slots.body.slots['header-banner'])).toEqual(['Tip', 'Notice', 'Banner', 'Footer']);

    await addUser(app, 'ada', PASSWORD, ['acme']);
    const meta = await (await signedInAgent(app, 'ada', PASSWORD)).get('/meta').expect(200);
    expect(names(meta.body.slots['header-banner'])).toEqual(['Tip', 'Notice', 'Banner', 'Footer']);
    expect(names(meta.body.slots['dashboard-before-cards'])).toEqual(['Banner', 'Tip', 'Notice', 'Footer']);
  });

  it('is the registration order for registrations without placements, as before', async () => {
    const { app } = await start((app) =>
      app.registerSlots({ 'login-before-form': [Slot.make('Notice'), Slot.make('Banner'), Slot.make('Notice')] }),
    );
    const slots = await request(app.handler).get('/slots').expect(200);
    expect(names(slots.body.slots['login-before-form'])).toEqual(['Notice', 'Banner', 'Notice']);
  });

  it('refuses a cycle and a duplicate id at registerSlots, naming the slots, and keeps nothing of that call', async () => {
    const { app } = await start(undefined);
    const cycle = () =>
      app.registerSlots({
        'header-banner': [
          Slot.make('Banner').placed({ after: 'Notice' }),
          Slot.make('Notice').placed({ after: 'Banner' }),
        ],
      });
    expect(cycle).toThrow(SlotRegistrationError);
    expect(cycle).toThrow(/"Banner" before "Notice" before "Banner"|"Notice" before "Banner" before "Notice"/);
    const duplicate = () =>
      app.registerSlots({
        'header-banner': [Slot.make('Banner').placed({ id: 'x' }), Slot.make('Notice').placed({ id: 'x' })],
      });
    expect(duplicate).toThrow(/two slots at "header-banner" have the id "x"/);
    expect(app.slots.registry.snapshot().size).toBe(0);
  });

  it('refuses the start when a slot is placed before or after an id no slot of its location has', async () => {
    const started = start((app) =>
      app.registerSlots({ 'header-banner': [Slot.make('Banner').placed({ before: 'Ghost' })] }),
    );
    await expect(started).rejects.toThrow(SlotContractError);
    await expect(started).rejects.toThrow(/slot "Banner" at "header-banner" is placed before "Ghost"/);
  });

  it('refuses a configuration whose placement names a missing slot, at start and on reload', async () => {
    const file = path.join(dist.dir, 'remotes.json');
    const write = (slot: Record<string, unknown>) =>
      fs.writeFileSync(file, JSON.stringify({ remotes: [{ name: 'team_place', slots: { 'header-banner': [slot] } }] }));
    write({ component: 'Tip', after: 'Nobody' });
    await expect(start(undefined, { REMOTES_CONFIG: file })).rejects.toThrow(/placed after "Nobody"/);

    write({ component: 'Tip', after: 'Banner' });
    const { app } = await start((app) => app.registerSlots({ 'header-banner': Slot.make('Banner') }), {
      REMOTES_CONFIG: file,
    });
    write({ component: 'Tip', before: 'Banner', id: 'Banner' });
    expect(await app.reloadRemotesConfig()).toBe(false);
    write({ component: 'Tip', before: 'Banner' });
    expect(await app.reloadRemotesConfig()).toBe(true);
    const slots = await request(app.handler).get('/slots').expect(200);
    expect(names(slots.body.slots['header-banner'])).toEqual(['Tip', 'Banner']);
  });
});

describe('visibleWhen', () => {
  it('is refused on a slot of a public location when it needs a user (code and configuration)', async () => {
    const { app } = await start(undefined);
    expect(() =>
      app.registerSlots({
        'global-before-content': Slot.make('Banner').placed({ visibleWhen: { roles: ['operator'] } }),
      }),
    ).toThrow(
      /public location "global-before-content" has a "visibleWhen" rule over the user's roles, permissions or tenant/,
    );
    expect(() =>
      app.registerSlots({
        'login-sidebar': Slot.make('Banner').placed({ visibleWhen: { $not: { tenants: ['acme'] } } }),
      }),
    ).toThrow(SlotRegistrationError);
    // Flags need no user, but GET /slots is one cached answer for every visitor: refused too, saying why.
    expect(() =>
      app.registerSlots({ 'header-banner': Slot.make('Banner').placed({ visibleWhen: { flags: ['beta'] } }) }),
    ).toThrow(/has a "visibleWhen" rule; GET \/slots \(one cached answer for every visitor\) does not evaluate rules/);
    await testApp!.close();
    testApp = null;

    const file = dist.write(
      'remotes.json',
      JSON.stringify({
        remotes: [
          {
            name: 'team_place',
            slots: { 'header-banner': [{ component: 'Tip', visibleWhen: { tenants: ['acme'] } }] },
          },
        ],
      }),
    );
    const started = start(undefined, { REMOTES_CONFIG: file });
    await expect(started).rejects.toThrow(RemotesConfigError);
    await expect(started).rejects.toThrow(/slots\["header-banner"\]\[0\]: slot "Tip" at the public location/);
  });

  async function startWithRules(): Promise<TestApp> {
    const app = await start((app) =>
      app.registerSlots({
        'dashboard-before-cards': [
          Slot.make('Banner'),
          Slot.make('OpsOnly').placed({ visibleWhen: { roles: [OPERATOR_ROLE] } }),
          Slot.make('AcmeOnly', { secret: 'acme-only-prop' }).placed({ visibleWhen: { tenants: ['acme'] } }),
          Slot.make('OpsAtAcme').placed({ visibleWhen: { $all: [{ roles: [OPERATOR_ROLE] }, { tenants: ['acme'] }] } }),
          Slot.make('OpsOrAcme').placed({ visibleWhen: { $any: [{ roles: [OPERATOR_ROLE] }, { tenants: ['acme'] }] } }),
          Slot.make('NotAcme').placed({ visibleWhen: { $not: { tenants: ['acme'] } } }),
          // Editors are everyone with an editor's rights: no role, the editor role, or operator; not viewers.
          Slot.make('EditorsOnly').placed({ visibleWhen: { roles: [EDITOR_ROLE] } }),
        ],
      }),
    );
    for (const [user, tenant, role] of [
      ['ops-acme', 'acme', OPERATOR_ROLE],
      ['ops-globex', 'globex', OPERATOR_ROLE],
      ['staff-acme', 'acme', null],
      ['staff-globex', 'globex', null],
      ['viewer-acme', 'acme', VIEWER_ROLE],
    ] as const) {
      await addUser(app.app, user, PASSWORD, [tenant]);
      if (role) await app.app.users.setRole(user, role);
    }
    return app;
  }

  it.each([
    ['ops-acme', ['Banner', 'OpsOnly', 'AcmeOnly', 'OpsAtAcme', 'OpsOrAcme', 'EditorsOnly']],
    ['ops-globex', ['Banner', 'OpsOnly', 'OpsOrAcme', 'NotAcme', 'EditorsOnly']],
    ['staff-acme', ['Banner', 'AcmeOnly', 'OpsOrAcme', 'EditorsOnly']],
    ['staff-globex', ['Banner', 'NotAcme', 'EditorsOnly']],
    ['viewer-acme', ['Banner', 'AcmeOnly', 'OpsOrAcme']],
  ])('gives %s on /meta and in their signed-in page only the slots whose rule holds', async (user, visible) => {
    const { app } = await startWithRules();
    const agent = await signedInAgent(app, user, PASSWORD);
    const meta = await agent.get('/meta').expect(200);
    expect(names(meta.body.slots['dashboard-before-cards'])).toEqual(visible);
    const page = await agent.get('/').set('Accept', 'text/html').expect(200);
    // The boot data lists every component of the remote (public facts); the session data and the preload hints
    // carry only the slots this user may see.
    const session = /id="slots-session-data">(.*?)<\/script>/s.exec(page.text)?.[1] ?? '';
    for (const component of RULED) {
      const expected = visible.includes(component);
      expect([component, session.includes(`"${component}"`)]).toEqual([component, expected]);
      expect([component, page.text.includes(`__federation_expose_${component}.`)]).toEqual([component, expected]);
    }
    if (!visible.includes('AcmeOnly')) {
      expect(meta.text).not.toContain('acme-only-prop');
      expect(page.text).not.toContain('acme-only-prop');
    }
  });

  it('keeps /meta cached: one body part per outcome of the rules, shared by the viewers with that outcome', async () => {
    const { app } = await startWithRules();
    const acme = { id: 'acme', name: 'ACME' };
    const first = await app.meta.body.body(acme, { roles: [], permissions: [], flags: NO_FLAGS });
    expect(await app.meta.body.body(acme, { roles: [], permissions: [], flags: NO_FLAGS })).toBe(first);
    expect(await app.meta.body.body(acme, { roles: ['someone-else'], permissions: [], flags: NO_FLAGS })).toBe(first);
    const operator = await app.meta.body.body(acme, { roles: [OPERATOR_ROLE], permissions: [], flags: NO_FLAGS });
    expect(operator[1]).not.toBe(first[1]);
    expect(operator[0]).toBe(first[0]);
    const globexOperator = await app.meta.body.body(
      { id: 'globex', name: 'GLOBEX' },
      { roles: [OPERATOR_ROLE], permissions: [], flags: NO_FLAGS },
    );
    expect(globexOperator[1]).not.toBe(operator[1]);
  });
});
