/**
 * The host page carries the release each request gets: the boot data of index.html names the previewed (or
 * canaried) release's entry for that session only; the operators' page `/releases` is a client route.
 */
import request from 'supertest';
import { BOOT_DATA_ELEMENT_ID, RELEASES_PAGE_PATH, Slot, type BootData } from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { createDemoApp, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';

const BUILT = '/remotes/team_records/mf-manifest.json';
/** The page registers a remote this server builds by its entry script (server/host-page/boot-data.ts). */
const BUILT_ENTRY = '/remotes/team_records/remoteEntry.js';
const CDN = 'https://cdn.example.com/records/2/mf-manifest.json';

let dist: FixtureDist;
let testApp: DemoTestApp;

beforeEach(async () => {
  dist = createFixtureDist();
  dist.addHost({ remoteHints: true });
  dist.addRemote({ name: 'team_records', components: ['ProtectedNote', 'TenantSwitcher'], formComponents: [] });
  testApp = await createDemoApp({
    distDir: dist.dir,
    slotProblems: 'log',
    configure: (app) => app.registerSlots({ 'dashboard-after-cards': Slot.make('ProtectedNote', {}) }),
  });
  const { store: releases, snapshot: releaseSnapshot } = testApp.app.releases;
  const release = {
    remote: 'team_records',
    components: ['ProtectedNote', 'TenantSwitcher'],
    formComponents: [],
    props: {},
  };
  await releases.publish({ ...release, version: '1', entry: BUILT, publishedBy: 'test' });
  await releases.publish({ ...release, version: '2', entry: CDN, publishedBy: 'test' });
  await releases.changeRollout({
    remote: 'team_records',
    action: 'activate',
    actor: 'test',
    next: { active: '1', canary: null },
  });
  await releaseSnapshot.refresh();
});

afterEach(async () => {
  await testApp.close();
  dist.remove();
});

function bootRemotes(html: string): BootData['remotes'] {
  const boot = new RegExp(`id="${BOOT_DATA_ELEMENT_ID}">(.*?)</script>`, 's').exec(html)?.[1];
  return (JSON.parse(boot ?? '{"remotes":[]}') as BootData).remotes;
}

function bootEntries(html: string): string[] {
  return bootRemotes(html).map((remote) => remote.entry);
}

it('gives a previewing operator the previewed entry in the page, everyone else the active one', async () => {
  const operator = await signedInAgent(testApp.app);
  await operator.post('/api/remotes/team_records/preview').send({ version: '2' }).expect(200);
  const previewed = bootRemotes((await operator.get('/').expect(200)).text);
  expect(previewed.map((remote) => [remote.entry, remote.previewedVersion])).toEqual([[CDN, '2']]);
  expect(bootEntries((await request(testApp.app.handler).get('/login').expect(200)).text)).toEqual([BUILT_ENTRY]);
  const page = await operator.get(RELEASES_PAGE_PATH).expect(200);
  expect(page.headers['content-type']).toMatch(/html/);
  expect(page.headers['content-security-policy']).toContain('https://cdn.example.com');
});
