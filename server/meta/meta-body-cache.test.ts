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

  it('holds the whole /meta payload of a tenant, as the parts would serialise it', () => {
    const { app } = testApp;
    const payload = payloadOf(app.metaBody.body(ACME));
    expect(payload).toEqual({
      dashboards: JSON.parse(app.dashboards.json(ACME)) as unknown,
      modules: JSON.parse(app.modules.json()) as unknown,
      slots: JSON.parse(app.slotsPayload.current().allSlots) as unknown,
    });
    expect(payload.dashboards[0]?.cards).toContainEqual({ title: 'Tenant', value: 'Acme Corp' });
  });

  it('hands out the same bytes until a part changes, and shares the slots bytes between tenants', () => {
    const { app } = testApp;
    const acme = app.metaBody.body(ACME);
    const globex = app.metaBody.body(GLOBEX);
    const builds = app.metaBody.builds;
    expect(app.metaBody.body(ACME)).toBe(acme);
    expect(app.metaBody.body(GLOBEX)).toBe(globex);
    expect(app.metaBody.builds).toBe(builds);
    expect(globex[1]).toBe(acme[1]);
    expect(payloadOf(globex).dashboards[0]?.cards).toContainEqual({ title: 'Tenant', value: 'Globex' });
  });

  it('rebuilds after records change (dashboards), a module is added or slots are registered', () => {
    const { app } = testApp;
    const first = app.metaBody.body(ACME);
    const authors = () => payloadOf(app.metaBody.body(ACME)).dashboards[0]?.cards.find((c) => c.title === 'Authors');
    const before = authors()?.value as number;

    app.records.insert('acme', 'authors', { title: 'New author', label: 'New' });
    expect(app.metaBody.body(ACME)).not.toBe(first);
    expect(authors()?.value).toBe(before + 1);

    const afterRecords = app.metaBody.body(ACME);
    app.registerModule({ name: 'more', label: 'More', resources: ['articles'] });
    const afterModule = app.metaBody.body(ACME);
    expect(afterModule).not.toBe(afterRecords);
    expect(payloadOf(afterModule).modules.map((module) => module.name)).toContain('more');

    app.registerSlots({ 'tenant-switcher': Slot.make('SecondSwitcher') });
    const afterSlots = app.metaBody.body(ACME);
    expect(afterSlots).not.toBe(afterModule);
    expect(afterSlots[0]).toBe(afterModule[0]);
    expect(payloadOf(afterSlots).slots['tenant-switcher']?.map((entry) => entry.component)).toEqual([
      'TenantSwitcher',
      'SecondSwitcher',
    ]);
  });
});
