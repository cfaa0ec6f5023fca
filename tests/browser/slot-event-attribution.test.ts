/**
 * Which release and which outcome the server counts a page's slot loads under, in Chromium, from the pages' own
 * beacons (no test code posts an event):
 * - a tab opened on release 2.0.0 of team_marketing and left open across a rollback to 1.0.0 keeps counting its loads
 *   (renders after a client-side navigation, and a failure) under 2.0.0, the release it runs, through the signed
 *   `releaseTag` of its remotes; a page loaded after the rollback counts under 1.0.0;
 * - a component that breaks once on screen (a later render throws) is a failed load of phase render, not a rendered
 *   one: whether its rendered event was already sent (the failure then goes out with `afterRender`) or still queued.
 *
 * The releases are served from static origins of the built remote; the one that breaks is a copy of the build whose
 * WelcomeCard throws on a window event (testing/system/breakable-remote.ts).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { SlotLoadEvent, SlotLoadStats, SlotStatsPayload } from '../../shared';
import {
  BREAK_COMPONENT_EVENT,
  BREAK_ON_MOUNT_FLAG,
  copyWithBreakableComponent,
} from '../../testing/system/breakable-remote';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import type { HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { addToken } from '../../testing/system/npm-command';
import { DIST_DIR } from '../../testing/system/repo-root';
import { signIn } from '../../testing/system/sign-in';
import { waitForSlot } from '../../testing/system/slot-page';
import { waitForSettledPage } from '../../testing/system/staff-pages';
import { startStaticServer } from '../../testing/system/static-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

jest.setTimeout(120_000);

const REMOTE = 'team_marketing';
const BUILT = path.join(DIST_DIR, 'remotes', REMOTE);
/** The dashboard's slots of team_marketing: a Callout with a WelcomeCard as its content. */
const LOCATION = 'dashboard-before-cards';
const CALLOUT = 'Callout';
const WELCOME = 'WelcomeCard';

const suite = useBrowserSuite();
const origins: HttpFixtureServer[] = [];
const folders: TempDir[] = [];
afterEach(async () => {
  await Promise.all(origins.splice(0).map((origin) => origin.close()));
  for (const folder of folders.splice(0)) folder.remove();
});

/** A static origin of the built remote; `breakable`: a copy of it whose WelcomeCard breaks on BREAK_COMPONENT_EVENT. */
async function startOrigin({ breakable }: { breakable: boolean }): Promise<HttpFixtureServer> {
  let root = BUILT;
  if (breakable) {
    const folder = makeTempDir('slots-breakable-remote-');
    folders.push(folder);
    root = path.join(folder.path, REMOTE);
    await copyWithBreakableComponent(BUILT, WELCOME, root);
  }
  const origin = await startStaticServer(root);
  origins.push(origin);
  return origin;
}

async function ok(response: { status(): number; text(): Promise<string> }, what: string): Promise<void> {
  if (response.status() >= 300) throw new Error(`${what}: ${response.status()} ${await response.text()}`);
}

/** The team publishes each release with its token (from its origin's manifest); none is put in force. */
async function publish(page: Page, releases: readonly (readonly [string, HttpFixtureServer])[]): Promise<void> {
  const token = await addToken(suite.server, REMOTE);
  for (const [version, origin] of releases) {
    const published = await page.request.post(`/api/remotes/${REMOTE}/releases`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { version, entry: `${origin.url}/mf-manifest.json` },
    });
    await ok(published, `publish ${version}`);
  }
}

/**
 * The slot events a page's beacons carry, in the order it sends them, read on their way (a beacon is seen by a route
 * of its page, not always by its `request` event) and passed on unchanged.
 */
async function recordBeacons(page: Page): Promise<SlotLoadEvent[]> {
  const events: SlotLoadEvent[] = [];
  await page.route('**/api/slot-events', (route) => {
    events.push(...(JSON.parse(route.request().postData() ?? '{"events":[]}') as { events: SlotLoadEvent[] }).events);
    return route.continue();
  });
  return events;
}

/** The load statistics of the last 5 minutes of team_marketing at the dashboard, per release and component. */
async function dashboardStats(
  page: Page,
): Promise<{ rows: SlotLoadStats[]; of(release: string, component: string): SlotLoadStats | undefined }> {
  const response = await page.request.get('/api/slot-stats?window=5m');
  await ok(response, 'GET /api/slot-stats');
  const rows = ((await response.json()) as SlotStatsPayload).stats.filter(
    (row) => row.remote === REMOTE && row.location === LOCATION,
  );
  return {
    rows,
    of: (release, component) => rows.find((row) => row.release === release && row.component === component),
  };
}

/** The counts of a row that a test compares (zeros for a row not there). */
function counts(row: SlotLoadStats | undefined) {
  return {
    rendered: row?.rendered ?? 0,
    failed: row?.failed ?? 0,
    render: row?.phases.render ?? 0,
  };
}

/**
 * Reads the dashboard's statistics until `done` holds (each page sends its events when idle, and each host writes its
 * counts once a second); throws with what it read last after 30 s.
 */
async function statsWhen(
  page: Page,
  what: string,
  done: (stats: Awaited<ReturnType<typeof dashboardStats>>) => boolean,
): Promise<Awaited<ReturnType<typeof dashboardStats>>> {
  const until = Date.now() + 30_000;
  for (;;) {
    const stats = await dashboardStats(page);
    if (done(stats)) return stats;
    if (Date.now() > until) throw new Error(`${what}: not counted within 30 s; rows: ${JSON.stringify(stats.rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** Signs in; its dashboard's loads (team_marketing as configured, release '') are counted before anything else. */
async function signInAndSettle(page: Page): Promise<void> {
  await signIn(page);
  await waitForSettledPage(page);
  // Counted now, they cannot arrive later, untagged, and be counted under a release put in force meanwhile.
  await statsWhen(page, 'the sign-in dashboard', (stats) => counts(stats.of('', WELCOME)).rendered >= 1);
}

function breakWelcomeCard(page: Page): Promise<void> {
  return page.evaluate((event) => void window.dispatchEvent(new Event(event)), BREAK_COMPONENT_EVENT);
}

function welcomeCardFailed(page: Page): Promise<void> {
  return page
    .locator(`[data-slot-location="${LOCATION}"] [data-slot-component="${WELCOME}"][data-slot-failed="render-error"]`)
    .waitFor({ state: 'attached', timeout: 10_000 });
}

it('counts a tab left open across a rollback under the release it runs, and a page loaded after under the new one', async () => {
  const stable = await startOrigin({ breakable: false });
  const canary = await startOrigin({ breakable: true });
  const { page } = await suite.newPage();
  // Once rolled back, 2.0.0's origin is refused: whatever a page renders after that, it has from before.
  const refuse = { now: false };
  await page
    .context()
    .route(`${canary.url}/**`, (route) => (refuse.now ? route.abort('connectionrefused') : route.continue()));
  await signInAndSettle(page);
  await publish(page, [
    ['1.0.0', stable],
    ['2.0.0', canary],
  ]);
  await ok(await page.request.post(`/api/remotes/${REMOTE}/activate`, { data: { version: '2.0.0' } }), 'activate');

  // The tab opens the dashboard on 2.0.0, and its loads are counted there.
  const beacons = await recordBeacons(page);
  await page.goto('/');
  await waitForSlot(page, LOCATION, WELCOME);
  await statsWhen(
    page,
    'the dashboard on 2.0.0',
    (stats) => counts(stats.of('2.0.0', CALLOUT)).rendered === 1 && counts(stats.of('2.0.0', WELCOME)).rendered === 1,
  );

  await ok(await page.request.post(`/api/remotes/${REMOTE}/rollback`, { data: { version: '1.0.0' } }), 'rollback');
  refuse.now = true;
  await page.evaluate(() => Object.assign(window, { openedBeforeRollback: true }));

  // The open tab goes on, without a reload: to the articles and back to the dashboard, whose slots render again from
  // the modules it has; then its WelcomeCard breaks.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Articles' }).click();
  await page.waitForURL('**/resources/articles');
  await waitForSettledPage(page);
  await nav.getByRole('link', { name: 'Dashboard' }).click();
  await waitForSlot(page, LOCATION, WELCOME);
  await breakWelcomeCard(page);
  await welcomeCardFailed(page);
  expect(await page.evaluate(() => (window as { openedBeforeRollback?: boolean }).openedBeforeRollback)).toBe(true);

  const open = await statsWhen(
    page,
    'the open tab after the rollback',
    // Or as soon as anything is counted under 1.0.0: already wrong.
    (stats) =>
      (counts(stats.of('2.0.0', CALLOUT)).rendered === 2 && counts(stats.of('2.0.0', WELCOME)).failed === 1) ||
      stats.rows.some((row) => row.release === '1.0.0'),
  );
  // Each load of the tab under 2.0.0, the one failure included; nothing under 1.0.0, whose figures the tab never ran.
  expect(counts(open.of('2.0.0', CALLOUT))).toEqual({ rendered: 2, failed: 0, render: 0 });
  expect(counts(open.of('2.0.0', WELCOME))).toEqual({ rendered: 1, failed: 1, render: 1 });
  expect(open.rows.filter((row) => row.release === '1.0.0')).toEqual([]);
  // Each event of the tab, before the rollback and after, said which release it runs, as the server signed it.
  const tabEvents = beacons.filter((event) => event.location === LOCATION);
  expect(tabEvents.length).toBeGreaterThanOrEqual(3);
  for (const event of tabEvents) expect(event.releaseTag).toMatch(/^2\.0\.0\.[\w-]+$/);

  // A page loaded after the rollback runs 1.0.0 and counts there; the open tab's figures stay where they were.
  const fresh = await page.context().newPage();
  const freshBeacons = await recordBeacons(fresh);
  await fresh.goto('/');
  await waitForSlot(fresh, LOCATION, WELCOME);
  const loaded = await statsWhen(
    page,
    'the page loaded after the rollback',
    (stats) => counts(stats.of('1.0.0', CALLOUT)).rendered === 1 && counts(stats.of('1.0.0', WELCOME)).rendered === 1,
  );
  expect(counts(loaded.of('1.0.0', CALLOUT))).toEqual({ rendered: 1, failed: 0, render: 0 });
  expect(counts(loaded.of('1.0.0', WELCOME))).toEqual({ rendered: 1, failed: 0, render: 0 });
  expect(counts(loaded.of('2.0.0', CALLOUT))).toEqual({ rendered: 2, failed: 0, render: 0 });
  expect(counts(loaded.of('2.0.0', WELCOME))).toEqual({ rendered: 1, failed: 1, render: 1 });
  const freshEvents = freshBeacons.filter((candidate) => candidate.location === LOCATION);
  expect(freshEvents.length).toBeGreaterThanOrEqual(2);
  for (const event of freshEvents) expect(event.releaseTag).toMatch(/^1\.0\.0\.[\w-]+$/);
});

it('counts a component that breaks once on screen as a failed load of its render, not a rendered one', async () => {
  const origin = await startOrigin({ breakable: true });
  const { page } = await suite.newPage();
  await signInAndSettle(page);
  await publish(page, [['1.0.0', origin]]);
  await ok(await page.request.post(`/api/remotes/${REMOTE}/activate`, { data: { version: '1.0.0' } }), 'activate');

  // Its render is sent and counted first; then it breaks: the failure goes out marked, and replaces the render.
  const beacons = await recordBeacons(page);
  await page.goto('/');
  await waitForSlot(page, LOCATION, WELCOME);
  await statsWhen(page, 'the render', (stats) => counts(stats.of('1.0.0', WELCOME)).rendered === 1);
  await breakWelcomeCard(page);
  await welcomeCardFailed(page);
  const sent = await statsWhen(
    page,
    'the failure after the render',
    (stats) => counts(stats.of('1.0.0', WELCOME)).failed === 1,
  );
  expect(counts(sent.of('1.0.0', WELCOME))).toEqual({ rendered: 0, failed: 1, render: 1 });
  expect(sent.of('1.0.0', WELCOME)?.failureRate).toBe(1);
  expect(beacons.filter((event) => event.component === WELCOME)).toEqual([
    expect.objectContaining({ outcome: 'rendered', phase: null }),
    expect.objectContaining({ outcome: 'failed', phase: 'render', kind: 'render-error', afterRender: true }),
  ]);

  // Another page whose WelcomeCard breaks right after its first commit, before the page is idle: one failed event
  // takes the place of the queued render, and nothing is marked.
  const early = await page.context().newPage();
  await early.addInitScript((flag) => Object.assign(window, { [flag]: true }), BREAK_ON_MOUNT_FLAG);
  const earlyBeacons = await recordBeacons(early);
  await early.goto('/');
  await welcomeCardFailed(early);
  const queued = await statsWhen(
    page,
    'the failure while queued',
    (stats) => counts(stats.of('1.0.0', WELCOME)).failed === 2,
  );
  expect(counts(queued.of('1.0.0', WELCOME))).toEqual({ rendered: 0, failed: 2, render: 2 });
  // Its Callout, around it, rendered: only the slot that broke failed.
  expect(counts(queued.of('1.0.0', CALLOUT))).toEqual({ rendered: 2, failed: 0, render: 0 });
  const earlyWelcome = earlyBeacons.filter((event) => event.component === WELCOME);
  expect(earlyWelcome).toEqual([expect.objectContaining({ outcome: 'failed', phase: 'render', kind: 'render-error' })]);
  expect(earlyWelcome[0]).not.toHaveProperty('afterRender');
});
