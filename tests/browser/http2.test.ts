/**
 * The product served over HTTPS by the server itself (TLS_CERT_FILE, TLS_KEY_FILE), in Chromium: the sign-in page,
 * signing in, the dashboard with its remotes, /meta and the slot events' beacons all go over HTTP/2, as the
 * browser's own performance entries say (`nextHopProtocol`), and the page works as over HTTP/1.1.
 */
import type { Page } from 'playwright-core';
import { SLOT_EVENTS_PATH, type SlotStatsPayload } from '../../shared';
import { startAppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { makeSelfSignedCert, type SelfSignedCert } from '../../testing/server/self-signed-cert';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage, waitForSlot } from '../../testing/system/slot-page';

jest.setTimeout(90_000);

let cert: SelfSignedCert;
beforeAll(() => {
  cert = makeSelfSignedCert();
});
afterAll(() => cert.dir.remove());

const suite = useBrowserSuite({ startServer: () => startAppServer({ tls: cert }) });

/** Every request the page made so far, with the protocol it went over: `path -> nextHopProtocol`. */
async function protocolsOf(page: Page): Promise<Array<{ path: string; protocol: string }>> {
  return page.evaluate(() =>
    (performance.getEntriesByType('navigation') as PerformanceResourceTiming[])
      .concat(performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .map((entry) => ({ path: new URL(entry.name).pathname, protocol: entry.nextHopProtocol })),
  );
}

it('serves the sign-in page and the dashboard over HTTP/2, with everything they load', async () => {
  // The certificate is the test's own: Chromium is told to accept it, as --ignore-certificate-errors would.
  const { page, log } = await suite.newPage({ ignoreHTTPSErrors: true });
  expect(suite.url).toMatch(/^https:/);

  await page.goto('/login');
  await page.locator('input[name="username"]').waitFor();
  await waitForSlot(page, 'login-before-form', 'LoginNotice');
  const signInPage = await protocolsOf(page);
  expect(signInPage.find((entry) => entry.path === '/login')?.protocol).toBe('h2');
  expect(signInPage.filter((entry) => entry.path.startsWith('/remotes/')).length).toBeGreaterThan(0);
  expect(signInPage.filter((entry) => entry.protocol !== 'h2')).toEqual([]);

  await signIn(page);
  await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
  await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks', { hasText: 'All articles' });
  // A full load of the signed-in page: its document, the host's files and the remotes' over the same connection.
  await page.goto('/');
  await waitForSlot(page, 'dashboard-before-cards', 'Callout', { hasText: 'Welcome to your content workspace' });
  const dashboard = await protocolsOf(page);
  expect(dashboard.find((entry) => entry.path === '/')?.protocol).toBe('h2');
  expect(dashboard.filter((entry) => entry.path.startsWith('/remotes/team_records/')).length).toBeGreaterThan(0);
  expect(dashboard.filter((entry) => entry.protocol !== 'h2')).toEqual([]);

  // The API from the page: /meta signed in, over HTTP/2 too.
  const meta = await fetchInPage(page, '/meta');
  expect(meta.status).toBe(200);
  expect((await protocolsOf(page)).filter((entry) => entry.path === '/meta').map((entry) => entry.protocol)).toEqual(
    expect.arrayContaining(['h2']),
  );

  // The page's own beacons reach the server over HTTP/2 and are counted.
  const until = Date.now() + 30_000;
  let counted = 0;
  while (counted === 0) {
    if (Date.now() > until)
      throw new Error(`no slot event counted; beacons: ${log.requestsTo('POST', SLOT_EVENTS_PATH).length}`);
    await page.waitForTimeout(500);
    const { body } = await fetchInPage<SlotStatsPayload>(page, '/api/slot-stats?window=5m');
    counted = body.stats.reduce((sum, row) => sum + row.rendered, 0);
  }
  expect(log.requestsTo('POST', SLOT_EVENTS_PATH).length).toBeGreaterThan(0);
  expect(log.pageErrors).toEqual([]);
  expect(log.requests.filter((request) => request.failure !== undefined)).toEqual([]);
});
