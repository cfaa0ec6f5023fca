/**
 * Slot events end to end in Chromium: a remote made to fail (its files refused) on a visitor's page becomes a failed
 * load in the server's aggregate, with its phase, sent by the page's own beacons (no test code posts them), and
 * the slot inspector shows the failure rate of that slot on the release its remote serves.
 */
import type { SlotStatsPayload } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';

jest.setTimeout(90_000);

const suite = useBrowserSuite();

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
