import request from 'supertest';
import { Slot, SlotLocation, type MetaPayload, type SlotsPayload } from '../../shared';
import { createDemoApp, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';
import { Field } from '../resources/field';
import { ArticlesResource } from './articles-resource';
import { AuthorsResource } from './authors-resource';
import { demoSlots } from './demo-slots';

const TEAM_MARKETING = [
  'Callout',
  'WelcomeCard',
  'LoginNotice',
  'MaintenanceNotice',
  'SystemStatus',
  'FooterLinks',
  'AccountHelp',
  'LoginSidebarPromo',
];
const TEAM_RECORDS = [
  'TenantSwitcher',
  'CopyLinkAction',
  'ExportJsonAction',
  'EditingTips',
  'SaveNote',
  'ActivityTimeline',
  'RelatedHint',
  'ShortcutLinks',
  'SlugPreview',
  'SearchSnippetPreview',
];

describe('demo content', () => {
  let testApp: DemoTestApp;

  beforeAll(async () => {
    testApp = await createDemoApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('registers at least one slot at every one of the 15 locations, with the catalogue components', async () => {
    const agent = await signedInAgent(testApp.app);
    const { slots } = (await agent.get('/meta')).body as MetaPayload;
    expect(Object.keys(slots).sort()).toEqual(
      SlotLocation.cases()
        .map((location) => location.value)
        .sort(),
    );
    const names = (value: string) => slots[value as keyof typeof slots]?.map((entry) => entry.component);
    expect(names('header-banner')).toEqual(['MaintenanceNotice']);
    expect(names('global-before-content')).toEqual(['SystemStatus']);
    expect(names('global-after-content')).toEqual(['FooterLinks']);
    expect(names('login-before-form')).toEqual(['LoginNotice', 'Callout']);
    expect(names('login-after-form')).toEqual(['AccountHelp']);
    expect(names('login-sidebar')).toEqual(['LoginSidebarPromo']);
    expect(names('tenant-switcher')).toEqual(['TenantSwitcher']);
    expect(names('dashboard-before-cards')).toEqual(['Callout']);
    expect(names('dashboard-after-cards')).toEqual(['ShortcutLinks']);
    expect(names('resource-page-actions')).toEqual(['CopyLinkAction', 'ExportJsonAction']);
    expect(names('resource-edit-actions')).toEqual(['CopyLinkAction']);
    expect(names('resource-before-form')).toEqual(['EditingTips']);
    expect(names('resource-after-form')).toEqual(['SaveNote']);
    expect(names('resource-before-relations')).toEqual(['ActivityTimeline']);
    expect(names('resource-after-relations')).toEqual(['RelatedHint']);
  });

  it('gives the components the props shapes of the catalogue, with string and nested Slot content', async () => {
    const { slots } = (await request(testApp.app.handler).get('/slots')).body as SlotsPayload;
    const [notice, callout] = slots['login-before-form'] ?? [];
    expect(notice?.props).toEqual({ title: expect.any(String), text: expect.any(String) });
    expect(callout?.props).toEqual({ tone: 'info' });
    expect(typeof callout?.content).toBe('string');
    expect(slots['header-banner']?.[0]?.props).toEqual({ message: expect.any(String), severity: 'info' });
    expect(slots['login-sidebar']?.[0]?.props).toEqual({
      title: expect.any(String),
      body: expect.any(String),
      linkLabel: expect.any(String),
      href: expect.any(String),
    });

    const agent = await signedInAgent(testApp.app);
    const meta = (await agent.get('/meta')).body as MetaPayload;
    expect(meta.slots['dashboard-before-cards']?.[0]).toEqual({
      component: 'Callout',
      props: { tone: 'success' },
      content: { component: 'WelcomeCard', props: { title: expect.any(String) } },
    });
    expect(meta.slots['resource-page-actions']?.[1]?.props).toEqual({ filenamePrefix: expect.any(String) });
    expect(meta.slots['resource-before-relations']?.[0]?.props).toEqual({ limit: expect.any(Number) });
    expect(meta.slots['resource-before-form']?.[0]?.props.tips).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  it('gives editing tips that name the fields of every resource whose form they are shown above', () => {
    const tips = demoSlots()['resource-before-form'];
    const text = (Array.isArray(tips) ? tips : [tips])
      .flatMap((slot) => (slot?.component === 'EditingTips' ? (slot.props.tips as string[]) : []))
      .join(' ')
      .toLowerCase();
    for (const resource of [new ArticlesResource(), new AuthorsResource()]) {
      for (const name of ['title', 'label']) {
        const field = resource.fields().find((entry) => entry instanceof Field && entry.name === name) as Field;
        expect({ resource: resource.name, mentions: text.includes(field.label.toLowerCase()) }).toEqual({
          resource: resource.name,
          mentions: true,
        });
      }
    }
  });

  it('tells sign-in visitors where the password of admin comes from, true whatever this start was given', () => {
    const slots = demoSlots()['login-before-form'];
    const hint = (Array.isArray(slots) ? slots : []).find((slot) => slot.component === 'Callout')?.content;
    expect(hint).toBe(
      'Demo: sign in as admin with the password the database was made with: DEMO_PASSWORD if it was set at the ' +
        'first start, else the one the server printed then.',
    );
  });

  it('uses only components of the two demo remotes', () => {
    const used = new Set<string>();
    const collect = (slot: Slot) => {
      used.add(slot.component);
      const content = slot.content;
      if (content instanceof Slot) collect(content);
      else if (Array.isArray(content)) content.forEach(collect);
    };
    for (const value of Object.values(demoSlots())) {
      for (const slot of Array.isArray(value) ? value : [value as Slot]) collect(slot);
    }
    for (const name of used) expect([...TEAM_MARKETING, ...TEAM_RECORDS]).toContain(name);
  });

  it('seeds the demo tenants, a handful of different records per tenant, and the admin in both tenants', async () => {
    const { app } = testApp;
    expect(await app.tenants.list()).toEqual([
      { id: 'acme', name: 'Acme Corp' },
      { id: 'globex', name: 'Globex' },
    ]);
    const acmeTitles = (await app.records.list('acme', 'articles')).map((record) => record.title);
    const globexTitles = (await app.records.list('globex', 'articles')).map((record) => record.title);
    expect(acmeTitles.length).toBeGreaterThanOrEqual(3);
    expect(globexTitles.length).toBeGreaterThanOrEqual(3);
    expect(acmeTitles.filter((title) => globexTitles.includes(title))).toEqual([]);
    const admin = await app.users.findByUsername('admin');
    expect(admin).toBeDefined();
    expect((await app.tenants.tenantsOf(admin!.id)).map((tenant) => tenant.id)).toEqual(['acme', 'globex']);
    expect(testApp.demoAccount).toEqual({
      username: 'admin',
      created: true,
      password: expect.any(String),
      passwordGenerated: false,
    });
  });

  it('seeds nothing twice when the data is there already', async () => {
    const again = await createDemoApp({ dir: testApp.dir });
    try {
      expect(await again.app.records.count('acme', 'articles')).toBe(
        await testApp.app.records.count('acme', 'articles'),
      );
      expect(await again.app.users.count()).toBe(await testApp.app.users.count());
      expect(again.demoAccount?.created).toBe(false);
    } finally {
      await again.close({ keepData: true });
    }
  });
});

describe('demo account password', () => {
  it('is generated when none is given, and works', async () => {
    const testApp = await createDemoApp({ demo: {} });
    try {
      const account = testApp.demoAccount;
      expect(account).toMatchObject({ username: 'admin', created: true, passwordGenerated: true });
      expect(account?.password?.length).toBeGreaterThanOrEqual(16);
      const response = await request(testApp.app.handler)
        .post('/login')
        .send({ username: 'admin', password: account?.password });
      expect(response.status).toBe(200);
    } finally {
      await testApp.close();
    }
  });
});
