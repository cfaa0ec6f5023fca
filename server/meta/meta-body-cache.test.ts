import { Slot, type MetaPayload, type Tenant } from '../../shared';
import { createDemoApp, type TestApp } from '../../testing/server/test-app';
import type { MetaBody } from './meta-body-cache';

const ACME: Tenant = { id: 'acme', name: 'Acme Corp' };
const GLOBEX: Tenant = { id: 'globex', name: 'Globex' };

function payloadOf(body: MetaBody): MetaPayload {
  return JSON.parse(Buffer.concat(body).toString('utf8')) as MetaPayload;
}

describe('MetaBodyCache', () => {
  let testApp: TestApp;

  beforeEach(async () => {
    testApp = await createDemoApp();
  });

  afterEach(async () => {
    await testApp.close();
  });

  it('holds the whole /meta payload of a tenant, as the parts would serialise it', async () => {
    const { app } = testApp;
    const payload = payloadOf(await app.meta.body.body(ACME));
    expect(payload).toEqual({
      dashboards: JSON.parse(await app.meta.dashboards.json(ACME)) as unknown,
      modules: JSON.parse(app.meta.navigation.json()) as unknown,
      slots: JSON.parse(app.slots.payload.current().allSlots) as unknown,
    });
    expect(payload.dashboards[0]?.cards).toContainEqual({ title: 'Tenant', value: 'Acme Corp' });
  });

  it('hands out the same bytes until a part changes, and shares the slots bytes between tenants', async () => {
    const { app } = testApp;
    const acme = await app.meta.body.body(ACME);
    const globex = await app.meta.body.body(GLOBEX);
    const builds = app.meta.body.builds;
    expect(await app.meta.body.body(ACME)).toBe(acme);
    expect(await app.meta.body.body(GLOBEX)).toBe(globex);
    expect(app.meta.body.builds).toBe(builds);
    expect(globex[1]).toBe(acme[1]);
    expect(payloadOf(globex).dashboards[0]?.cards).toContainEqual({ title: 'Tenant', value: 'Globex' });
  });

  it('rebuilds after records change (dashboards), a module is added or slots are registered', async () => {
    const { app } = testApp;
    const first = await app.meta.body.body(ACME);
    const authors = async () =>
      payloadOf(await app.meta.body.body(ACME)).dashboards[0]?.cards.find((c) => c.title === 'Authors');
    const before = (await authors())?.value as number;

    await app.records.insert('acme', 'authors', { title: 'New author', label: 'New' });
    expect(await app.meta.body.body(ACME)).not.toBe(first);
    expect((await authors())?.value).toBe(before + 1);

    const afterRecords = await app.meta.body.body(ACME);
    app.registerModule({ name: 'more', label: 'More', resources: ['articles'] });
    const afterModule = await app.meta.body.body(ACME);
    expect(afterModule).not.toBe(afterRecords);
    expect(payloadOf(afterModule).modules.map((module) => module.name)).toContain('more');

    app.registerSlots({ 'tenant-switcher': Slot.make('SecondSwitcher') });
    const afterSlots = await app.meta.body.body(ACME);
    expect(afterSlots).not.toBe(afterModule);
    expect(afterSlots[0]).toBe(afterModule[0]);
    expect(payloadOf(afterSlots).slots['tenant-switcher']?.map((entry) => entry.component)).toEqual([
      'TenantSwitcher',
      'SecondSwitcher',
    ]);
  });
});
