/**
 * The location catalogue (`GET /api/locations`), the allow-lists of locations (code and REMOTES_CONFIG, at start,
 * on reload, in the inspector) and the inspector's word on a slot hidden by its rule.
 */
import request from 'supertest';
import { OPERATOR_ROLE, Slot, SlotLocation, type InspectedSlot, type LocationsPayload } from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import {
  addUser,
  createTestApp,
  signedInAgent,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';
import { SlotContractError } from '../slots/slot-contract';
import { ALLOW_REMOTES_AFTER_READY } from '../slots/location-allow-lists';
import { SlotRegistrationError } from '../slots/slot-registry';

const PASSWORD = 'correct horse battery';

let dist: FixtureDist;
let testApp: TestApp | null = null;

beforeEach(() => {
  dist = createFixtureDist();
  dist.addRemote({ name: 'team_billing', components: ['InvoiceBanner', 'InvoiceNote'], formComponents: [] });
  dist.addRemote({ name: 'team_news', components: ['NewsTicker'], formComponents: [] });
});
afterEach(async () => {
  await testApp?.close();
  testApp = null;
  dist.remove();
});

async function start(configure: TestAppOptions['configure'], config?: unknown): Promise<TestApp> {
  const env = config === undefined ? {} : { REMOTES_CONFIG: dist.write('remotes.json', JSON.stringify(config)) };
  testApp = await createTestApp({ distDir: dist.dir, env, configure });
  return testApp;
}

async function staff(app: TestApp['app'], username: string, tenant: string, operator = false) {
  await addUser(app, username, PASSWORD, [tenant]);
  if (operator) await app.users.setRole(username, OPERATOR_ROLE);
  return signedInAgent(app, username, PASSWORD);
}

describe('GET /api/locations', () => {
  it('answers 401 signed out', async () => {
    const { app } = await start(undefined);
    const response = await request(app.handler).get('/api/locations').expect(401);
    expect(response.body.error.code).toBe('unauthenticated');
  });

  it('lists every location with its visibility, context props, allow-list and slots in order, with each rule', async () => {
    const { app } = await start(
      (app) => {
        app.allowRemotes({ 'dashboard-before-cards': ['team_billing', 'team_news'] });
        app.registerSlots({
          'dashboard-before-cards': [
            Slot.make('InvoiceBanner', { secret: 'not-in-the-catalogue' }),
            Slot.make('InvoiceNote').placed({ id: 'note', priority: 10, visibleWhen: { roles: [OPERATOR_ROLE] } }),
          ],
        });
      },
      {
        remotes: [
          { name: 'team_news', slots: { 'dashboard-before-cards': [{ component: 'NewsTicker', after: 'note' }] } },
        ],
        locations: { 'header-banner': ['team_news'] },
      },
    );
    const agent = await staff(app, 'ada', 'acme');
    const response = await agent.get('/api/locations').expect(200);
    const payload = response.body as LocationsPayload;
    expect(payload.locations.map((location) => location.location)).toEqual(
      SlotLocation.cases().map((location) => location.value),
    );
    expect(response.text).not.toContain('not-in-the-catalogue');
    const byName = new Map(payload.locations.map((location) => [location.location, location]));
    expect(byName.get('header-banner')).toEqual({
      location: 'header-banner',
      visibility: 'public',
      contextProps: [],
      allowedRemotes: ['team_news'],
      slots: [],
    });
    expect(byName.get('resource-page-actions')?.contextProps).toEqual(['resource', 'resourceId', 'record']);
    expect(byName.get('dashboard-before-cards')).toEqual({
      location: 'dashboard-before-cards',
      visibility: 'protected',
      contextProps: [],
      allowedRemotes: ['team_billing', 'team_news'],
      slots: [
        {
          id: 'note',
          component: 'InvoiceNote',
          remote: 'team_billing',
          source: 'code',
          priority: 10,
          visibleWhen: { roles: [OPERATOR_ROLE] },
          visibleToYou: false,
        },
        {
          id: 'NewsTicker',
          component: 'NewsTicker',
          remote: 'team_news',
          source: 'configuration',
          priority: 50,
          after: 'note',
          visibleToYou: true,
        },
        {
          id: 'InvoiceBanner',
          component: 'InvoiceBanner',
          remote: 'team_billing',
          source: 'code',
          priority: 50,
          visibleToYou: true,
        },
      ],
    });
    const operator = await staff(app, 'grace', 'acme', true);
    const asOperator = (await operator.get('/api/locations').expect(200)).body as LocationsPayload;
    const slots = asOperator.locations.find((location) => location.location === 'dashboard-before-cards')?.slots;
    expect(slots?.[0]?.visibleToYou).toBe(true);
  });
});

describe('allow-lists of locations', () => {
  it('refuses at start a code slot of a remote its location does not allow, naming the remote and the list', async () => {
    const started = start((app) => {
      app.allowRemotes({ 'dashboard-after-cards': ['team_news'] });
      app.registerSlots({ 'dashboard-after-cards': Slot.make('InvoiceBanner') });
    });
    await expect(started).rejects.toThrow(SlotContractError);
    await expect(started).rejects.toThrow(
      /InvoiceBanner at dashboard-after-cards\[0\] \(code, remote "team_billing"\): remote "team_billing" may not fill "dashboard-after-cards" \(allowed: team_news\)/,
    );
  });

  it('refuses an unknown location or a bad remote name in allowRemotes, and a call after ready()', async () => {
    const refusals: unknown[] = [];
    const { app } = await start((app) => {
      for (const map of [{ nowhere: ['team_news'] }, { 'header-banner': ['not a name'] }]) {
        try {
          app.allowRemotes(map as never);
        } catch (error) {
          refusals.push(error);
        }
      }
    });
    expect(refusals).toEqual([expect.any(SlotRegistrationError), expect.any(Error)]);
    expect(String(refusals[1])).toMatch(/must be a list of remote names/);
    // After the start, the slots registered would not be checked against it: refused.
    const late = () => app.allowRemotes({ 'header-banner': ['team_news'] });
    expect(late).toThrow(SlotRegistrationError);
    expect(late).toThrow(new SlotRegistrationError(ALLOW_REMOTES_AFTER_READY));
    expect(ALLOW_REMOTES_AFTER_READY).toMatch(/^allowRemotes\(\) after app\.ready\(\): call it before app\.ready\(\)/);
  });

  it("refuses a configured slot of another remote; the configuration's list replaces code's", async () => {
    const config = (locations: Record<string, string[]>) => ({
      remotes: [{ name: 'team_billing', slots: { 'dashboard-after-cards': [{ component: 'InvoiceNote' }] } }],
      locations,
    });
    await expect(start(undefined, config({ 'dashboard-after-cards': ['team_news'] }))).rejects.toThrow(
      /remote "team_billing" may not fill "dashboard-after-cards"/,
    );
    testApp = null;

    // Code allows only team_news; the file widens the location to team_billing: the start succeeds.
    const { app } = await start(
      (app) => app.allowRemotes({ 'dashboard-after-cards': ['team_news'] }),
      config({ 'dashboard-after-cards': ['team_billing'] }),
    );
    // A reload that narrows it again is refused, and the configuration in use stays.
    dist.write('remotes.json', JSON.stringify(config({ 'dashboard-after-cards': ['team_news'] })));
    expect(await app.reloadRemotesConfig()).toBe(false);
    expect(app.remotes.allowLists.allowed(SlotLocation.DASHBOARD_AFTER_CARDS)).toEqual(['team_billing']);
  });

  it('is shown by the inspector under a slot a release or late remote put outside its list', async () => {
    const { app } = await start(undefined, {
      remotes: [{ name: 'team_billing', slots: { 'dashboard-after-cards': [{ component: 'InvoiceNote' }] } }],
    });
    // The list narrowed under a slot in force after the start's check (as a release or a late remote leaves it; an
    // entry's allowRemotes() is refused after ready()): the inspector says what is wrong.
    app.remotes.allowLists.set({ 'dashboard-after-cards': ['team_news'] });
    const agent = await staff(app, 'ada', 'acme');
    const inspection = (await agent.get('/api/slots/inspect').expect(200)).body as {
      locations: Record<string, InspectedSlot[]>;
    };
    expect(inspection.locations['dashboard-after-cards']?.[0]?.problems).toEqual([
      'remote "team_billing" may not fill "dashboard-after-cards" (allowed: team_news)',
    ]);
  });
});

describe('the inspector and visibleWhen', () => {
  it('lists a slot hidden from the user by its rule with the rule and why, without its props', async () => {
    const { app } = await start((app) =>
      app.registerSlots({
        'dashboard-after-cards': [
          Slot.make('InvoiceNote', { secret: 'for-operators' }).placed({
            visibleWhen: { $all: [{ roles: [OPERATOR_ROLE] }, { $not: { tenants: ['globex'] } }] },
          }),
        ],
      }),
    );
    const inspect = async (agent: Awaited<ReturnType<typeof staff>>) =>
      ((await agent.get('/api/slots/inspect').expect(200)).body as { locations: Record<string, InspectedSlot[]> })
        .locations['dashboard-after-cards']?.[0];
    const hidden = await inspect(await staff(app, 'ada', 'acme'));
    // ada belongs to acme only: globex's id is not hers to learn, so the rule counts it instead of naming it.
    expect(hidden).toMatchObject({
      id: 'InvoiceNote',
      props: null,
      visibleWhen: { $all: [{ roles: [OPERATOR_ROLE] }, { $not: { tenants: [], otherTenants: 1 } }] },
      hiddenByRule: 'hidden from you by its rule: shown only for (role operator and not 1 tenant hidden from you)',
    });
    const shown = await inspect(await staff(app, 'grace', 'acme', true));
    expect(shown?.props).toEqual({ secret: 'for-operators' });
    expect(shown?.hiddenByRule).toBeUndefined();
    // An operator in every tenant writes these rules (the placements editor shows them whole): the rule as it is.
    expect(shown?.visibleWhen).toEqual({ $all: [{ roles: [OPERATOR_ROLE] }, { $not: { tenants: ['globex'] } }] });
  });
});

describe("other tenants' ids in rules", () => {
  const rule = { $any: [{ tenants: ['acme', 'globex', 'initech'] }, { flags: ['beta'] }] };

  async function startWithTenants() {
    const started = await start((app) =>
      app.registerSlots({ 'dashboard-after-cards': [Slot.make('InvoiceNote').placed({ visibleWhen: rule })] }),
    );
    for (const id of ['globex', 'initech']) await started.app.tenants.save({ id, name: id.toUpperCase() });
    return started.app;
  }
  const catalogued = async (agent: Awaited<ReturnType<typeof staff>>) =>
    ((await agent.get('/api/locations').expect(200)).body as LocationsPayload).locations.find(
      (location) => location.location === 'dashboard-after-cards',
    )?.slots[0];

  it('reach staff neither in the location catalogue nor in the inspector, counted instead of named', async () => {
    const app = await startWithTenants();
    const ada = await staff(app, 'ada', 'acme');
    const shown = { $any: [{ tenants: ['acme'], otherTenants: 2 }, { flags: ['beta'] }] };
    const slot = await catalogued(ada);
    expect(slot).toMatchObject({ visibleWhen: shown, visibleToYou: true });
    const inspected = (await ada.get('/api/slots/inspect').expect(200)).text;
    expect(inspected).not.toMatch(/globex|initech/);
    expect(JSON.stringify(slot)).not.toMatch(/globex|initech/);
  });

  it('are named for the tenants the user belongs to, and whole for an operator of every tenant', async () => {
    const app = await startWithTenants();
    await addUser(app, 'bob', PASSWORD, ['acme', 'globex']);
    const bob = await signedInAgent(app, 'bob', PASSWORD);
    expect((await catalogued(bob))?.visibleWhen).toEqual({
      $any: [{ tenants: ['acme', 'globex'], otherTenants: 1 }, { flags: ['beta'] }],
    });
    // An operator of acme only (a viewer's account elsewhere) does not edit placements everywhere: counted too.
    await addUser(app, 'olga', PASSWORD, ['acme', 'globex']);
    await app.tenants.setMembershipRole((await app.users.findByUsername('olga'))!.id, 'acme', OPERATOR_ROLE);
    const olga = await signedInAgent(app, 'olga', PASSWORD);
    expect((await catalogued(olga))?.visibleWhen).toMatchObject({ $any: [{ otherTenants: 1 }, { flags: ['beta'] }] });
    const grace = await staff(app, 'grace', 'acme', true);
    expect((await catalogued(grace))?.visibleWhen).toEqual(rule);
  });
});
