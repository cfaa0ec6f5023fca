/**
 * Slot events end to end in Chromium: a remote made to fail (its files refused) on a visitor's page becomes a failed
 * load in the server's aggregate, with its phase, sent by the page's own beacons (no test code posts them), and
 * the slot inspector shows the failure rate of that slot on the release its remote serves. A release whose origin
 * answers its manifest later than the runtime waits fails with a loading phase, never as its code.
 */
import type http from 'node:http';
import path from 'node:path';
import { SLOT_LOAD_DELIVERY_PHASES, type SlotStatsPayload } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { addToken } from '../../testing/system/npm-command';
import { DIST_DIR } from '../../testing/system/repo-root';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';
import { waitForSettledPage } from '../../testing/system/staff-pages';
import { startStaticServer } from '../../testing/system/static-server';

jest.setTimeout(90_000);

const suite = useBrowserSuite();
const origins: HttpFixtureServer[] = [];
afterEach(async () => {
  await Promise.all(origins.splice(0).map((origin) => origin.close()));
});

const SWITCHER = { remote: 'team_records', location: 'tenant-switcher', component: 'TenantSwitcher' };

it('counts the failed loads of a remote that does not answer, and shows them on the inspector', async () => {
  const { page } = await suite.newPage();
  const beacons: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/slot-events')) beacons.push(request.postData() ?? '');
  });
  await page.route('**/remotes/team_records/**', (route) => route.abort('connectionrefused'));
  await signIn(page);
  await page.locator('[data-host-tenant-switcher]').waitFor({ timeout: 20_000 });

  // The page sends its events once idle; the server counts them under the release it serves ('' as configured).
  let failed: SlotStatsPayload['stats'][number] | undefined;
  const until = Date.now() + 30_000;
  while (failed === undefined || failed.failed === 0) {
    if (Date.now() > until) throw new Error(`no failed load counted; beacons sent: ${beacons.length}`);
    await page.waitForTimeout(500);
    const { body } = await fetchInPage<SlotStatsPayload>(page, '/api/slot-stats?window=5m');
    failed = body.stats.find(
      (row) =>
        row.remote === SWITCHER.remote && row.component === SWITCHER.component && row.location === SWITCHER.location,
    );
  }
  expect(failed).toEqual(
    expect.objectContaining({
      release: '',
      rendered: 0,
      failureRate: 1,
      // The page registers the remote by its entry script (its boot data): the entry is what failed to load.
      phases: expect.objectContaining({ entry: failed.failed }),
    }),
  );
  // Nothing of a message or a prop went out: only the contract's fields.
  for (const body of beacons) {
    for (const event of (JSON.parse(body) as { events: Record<string, unknown>[] }).events) {
      expect(Object.keys(event).sort()).toEqual([
        'component',
        'kind',
        'loadMs',
        'location',
        'outcome',
        'phase',
        'remote',
        'startMs',
      ]);
    }
  }

  await page.goto('/inspect');
  const row = page
    .getByRole('region', { name: /Every slot of every location/ })
    .locator('tr[data-inspected-slot="TenantSwitcher"]');
  await row.locator('[data-failure-rate="1.000"]').waitFor({ timeout: 30_000 });
  await expect(row.innerText()).resolves.toMatch(/tenant-switcher\s+TenantSwitcher\s+team_records.*100\.0 % of \d+/s);
});

it('counts a manifest slower than the runtime waits for as a loading failure, never as a failure of the code', async () => {
  const files = await startStaticServer(path.join(DIST_DIR, 'remotes', 'team_marketing'));
  const slow = { now: false };
  // The team's origin: its files as built, but once `slow.now`, a manifest answered only when the test ends.
  const origin = await startHttpFixtureServer((request, response: http.ServerResponse) => {
    if (slow.now && (request.url ?? '').includes('mf-manifest.json')) return;
    fetch(`${files.url}${request.url ?? '/'}`).then(
      async (answer) => {
        const headers = Object.fromEntries(answer.headers.entries());
        response.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
      },
      () => response.destroy(),
    );
  });
  origins.push(files, origin);
  const { page } = await suite.newPage();
  await signIn(page);
  const token = await addToken(suite.server, 'team_marketing');
  const published = await page.request.post('/api/remotes/team_marketing/releases', {
    headers: { Authorization: `Bearer ${token}` },
    data: { version: '1.0.0', entry: `${origin.url}/mf-manifest.json` },
  });
  expect(published.status()).toBe(201);
  const activated = await page.request.post('/api/remotes/team_marketing/activate', { data: { version: '1.0.0' } });
  expect(activated.status()).toBe(200);

  slow.now = true;
  await page.goto('/');
  await waitForSettledPage(page);
  await page.goto('about:blank');
  await page.goto('/inspect');

  let release: SlotStatsPayload['releases'][number] | undefined;
  const until = Date.now() + 60_000;
  while (release === undefined || release.failed + release.timedOut === 0) {
    if (Date.now() > until) throw new Error('no failed load of the slow release counted');
    await page.waitForTimeout(500);
    const { body } = await fetchInPage<SlotStatsPayload>(page, '/api/slot-stats?window=5m');
    release = body.releases.find((row) => row.remote === 'team_marketing' && row.release === '1.0.0');
  }
  // Every failure is its files not arriving (the manifest's, or `load`): none is init, factory or render.
  const delivered = SLOT_LOAD_DELIVERY_PHASES.reduce((sum, phase) => sum + release.phases[phase], 0);
  expect(release.phases).toEqual(expect.objectContaining({ init: 0, factory: 0, render: 0 }));
  expect(delivered).toBe(release.failed + release.timedOut);
  expect(origin.requests.some((request) => request.url.includes('mf-manifest.json'))).toBe(true);
});
