/**
 * A team's releases as a person sees them: two versions of team_marketing published with a team token (made by the
 * real `npm run token:add`), served from two origins; the demo operator activates the newer one on the host's
 * releases page, then rolls it back there, and the next page load fetches the remote from the release in force.
 */
import path from 'node:path';
import { BOOT_DATA_ELEMENT_ID, type BootData, type RemoteHistoryPayload } from '../../shared';
import type { AppServer } from '../../testing/system/app-server';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import type { HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { addToken, runCommand } from '../../testing/system/npm-command';
import { DIST_DIR } from '../../testing/system/repo-root';
import { signIn } from '../../testing/system/sign-in';
import { waitForSlot } from '../../testing/system/slot-page';
import { startStaticServer } from '../../testing/system/static-server';
import type { Page } from 'playwright-core';

jest.setTimeout(120_000);

const suite = useBrowserSuite();
const origins: HttpFixtureServer[] = [];

afterEach(async () => {
  await Promise.all(origins.splice(0).map((origin) => origin.close()));
});

async function publish(server: AppServer, token: string, version: string, entry: string): Promise<void> {
  const response = await fetch(`${server.url}/api/remotes/team_marketing/releases`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ version, entry }),
  });
  if (response.status !== 201) throw new Error(`publishing ${version}: ${response.status} ${await response.text()}`);
}

/** The entry of team_marketing the page was served with (its boot data). */
async function marketingEntry(page: Page): Promise<string | undefined> {
  const text = await page.locator(`#${BOOT_DATA_ELEMENT_ID}`).textContent();
  const boot = JSON.parse(text ?? '{}') as BootData;
  return boot.remotes.find((remote) => remote.name === 'team_marketing')?.entry;
}

/**
 * Accepts the confirmation the releases page asks in its own dialog before a change (the action's button, first in
 * it), then waits for its announcement. The browser's own dialog would fail the test: none is accepted.
 */
async function confirmAndWait(page: Page, button: string, announcement: string): Promise<void> {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByRole('button').first().click();
  await page.getByRole('status').filter({ hasText: announcement }).waitFor();
}

/** Whether the element the selector finds has the focus, waited for. */
async function waitForFocus(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((found) => document.activeElement === document.querySelector(found), selector);
}

/** Two releases of team_marketing, from two origins serving its build: 1.0.0 and 2.0.0, none active yet. */
async function publishTwo(server: AppServer): Promise<[HttpFixtureServer, HttpFixtureServer]> {
  const builtMarketing = path.join(DIST_DIR, 'remotes', 'team_marketing');
  const first = await startStaticServer(builtMarketing);
  const second = await startStaticServer(builtMarketing);
  origins.push(first, second);
  const token = await addToken(server, 'team_marketing');
  await publish(server, token, '1.0.0', `${first.url}/mf-manifest.json`);
  await publish(server, token, '2.0.0', `${second.url}/mf-manifest.json`);
  return [first, second];
}

/**
 * How a release's version shows in its row's heading: its text (as copied), the lines it takes, and whether each of
 * its parts (`2026.`, `build.`, `sha.0740d3c4`, breakable-version.tsx) is on one line: broken anywhere, a version was
 * cut into pieces of a few letters that read as other versions.
 */
function shownVersion(
  page: Page,
  version: string,
): Promise<{ text: string | null; lines: number; partsWhole: boolean }> {
  return page.locator(`[aria-label="Releases of team_marketing"] tr[data-release="${version}"] th`).evaluate((cell) => {
    const linesOf = (range: Range) =>
      new Set([...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top))).size;
    const whole = document.createRange();
    whole.selectNodeContents(cell);
    const parts = [...cell.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE);
    return {
      text: cell.textContent,
      lines: linesOf(whole),
      partsWhole: parts.every((part) => {
        const range = document.createRange();
        range.selectNodeContents(part);
        return linesOf(range) === 1;
      }),
    };
  });
}

describe('releases of a remote, from the operators’ page', () => {
  it('activates a release and rolls it back; each is seen on the next page load, and the history shows both', async () => {
    const [first, second] = await publishTwo(suite.server);
    const { page, log } = await suite.newPage();
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Releases' }).click();
    await page.getByRole('heading', { name: 'Releases', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'team_marketing', level: 2 }).waitFor();

    await confirmAndWait(page, 'Activate 2.0.0', 'Activated team_marketing to 2.0.0');
    log.clear();
    await page.goto('/');
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard');
    expect(await marketingEntry(page)).toBe(`${second.url}/mf-manifest.json`);
    expect(log.requests.filter((request) => request.origin === second.url).length).toBeGreaterThan(0);
    expect(log.requests.filter((request) => request.origin === first.url)).toEqual([]);

    await page.goto('/releases');
    await confirmAndWait(page, 'Roll back to 1.0.0', 'team_marketing');
    log.clear();
    await page.goto('/');
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard');
    expect(await marketingEntry(page)).toBe(`${first.url}/mf-manifest.json`);
    expect(log.requests.filter((request) => request.origin === first.url).length).toBeGreaterThan(0);
    expect(log.requests.filter((request) => request.origin === second.url)).toEqual([]);
    expect(log.consoleMatching(/Content Security Policy|Refused to/, ['error', 'warning'])).toEqual([]);

    const history = (await (
      await page.request.get('/api/remotes/team_marketing/history')
    ).json()) as RemoteHistoryPayload;
    expect(history.entries.map((entry) => entry.action)).toEqual([
      'rollback',
      'activate',
      'publish',
      'publish',
      'token-add',
    ]);

    // Back to the build the server was given: no release origin is asked any more.
    await page.goto('/releases');
    await confirmAndWait(page, "Serve the server's own build", 'team_marketing serves the build the server was given');
    log.clear();
    await page.goto('/');
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard');
    expect(await marketingEntry(page)).toMatch(/^\/remotes\/team_marketing\//);
    expect(log.requests.filter((request) => request.origin === first.url || request.origin === second.url)).toEqual([]);
  });

  it.each([1280, 390])(
    'asks in the app’s dialog by keyboard at %i px: Escape changes nothing, a confirmation lands on the remote',
    async (width) => {
      await publishTwo(suite.server);
      const { page, log } = await suite.newPage({ viewport: { width, height: width === 390 ? 844 : 800 } });
      // The browser's own dialog is not the page's: one would be a failure (and is dismissed so as not to hang).
      const browserDialogs: string[] = [];
      page.on('dialog', (dialog) => {
        browserDialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await signIn(page);
      await page.goto('/releases');
      const heading = page.getByRole('heading', { name: 'team_marketing', level: 2 });
      await heading.waitFor();
      const active = () =>
        page
          .locator('[data-remote="team_marketing"] [data-rollout]')
          .innerText()
          .then((text) => /^Active: (.*?)\. /.exec(text)?.[1]);

      // The actions show without scrolling the table sideways (on phones they sat past its last column).
      const activate = await page.getByRole('button', { name: 'Activate 2.0.0' }).boundingBox();
      expect(activate!.x + activate!.width).toBeLessThanOrEqual(width);

      for (const [button, title, done] of [
        ['Activate 2.0.0', 'Activate team_marketing to 2.0.0?', 'Activated team_marketing to 2.0.0.'],
        ['Roll back to 1.0.0', 'Roll back team_marketing to 1.0.0?', 'Rolled back team_marketing to 1.0.0.'],
      ] as const) {
        const asking = page.getByRole('button', { name: button });
        await asking.focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: title });
        await dialog.waitFor();
        await page.waitForFunction(() => document.activeElement?.textContent === 'Cancel');
        await expect(dialog.getByText('Every host serves it from the next page load').count()).resolves.toBe(1);
        expect(await axeViolations(page)).toEqual([]);
        const before = await active();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        await page.waitForFunction((name) => document.activeElement?.textContent === name, button);
        expect(await active()).toBe(before);

        // Again, confirmed from its action's button (Shift+Tab from Cancel): done, the focus on the remote's heading,
        // above the rollout it changed (the button that asked is gone with the change).
        await page.keyboard.press('Enter');
        await dialog.waitFor();
        await page.waitForFunction(() => document.activeElement?.textContent === 'Cancel');
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Enter');
        await page.getByRole('status').filter({ hasText: done }).waitFor();
        await waitForFocus(page, '[id="releases-team_marketing"]');
        expect(await active()).not.toBe(before);
        expect(await axeViolations(page)).toEqual([]);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(browserDialogs).toEqual([]);
      expect(log.pageErrors).toEqual([]);
    },
  );

  it('fits a remote’s releases in their frame at 1280 px: no column beneath the pinned actions', async () => {
    await publishTwo(suite.server);
    const { page, log } = await suite.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page);
    // The widest rows: a release of a long version (a build id, without a break in it) in a canary saying whom it is
    // given to, and the release before the one in force offered back ("Roll back to 1.0.0" beside its "Preview").
    const long = '2026.11.29-build.1742+sha.0740d3c4';
    const token = await addToken(suite.server, 'team_marketing');
    await publish(suite.server, token, long, `${suite.server.url}/remotes/team_marketing/mf-manifest.json`);
    for (const [action, data] of [
      ['activate', { version: '2.0.0' }],
      ['canary', { version: long, percent: 10, tenants: ['acme'] }],
    ] as const) {
      const answer = await page.request.post(`/api/remotes/team_marketing/${action}`, { data });
      expect([action, answer.status()]).toEqual([action, 200]);
    }
    await page.goto('/releases');
    const frame = page.getByRole('region', { name: 'Releases of team_marketing' });
    await frame.getByRole('button', { name: 'Roll back to 1.0.0' }).waitFor();
    const widths = await frame.evaluate((element) => ({
      table: element.querySelector('table')!.scrollWidth,
      frame: element.clientWidth,
    }));
    expect(widths.table).toBeLessThanOrEqual(widths.frame);
    // The last column ends where the pinned actions begin, not beneath them.
    const last = await frame.getByRole('columnheader', { name: 'Load time p95' }).boundingBox();
    const actions = await frame.getByRole('columnheader', { name: 'Actions' }).boundingBox();
    expect(last!.x + last!.width).toBeLessThanOrEqual(actions!.x + 1);
    expect(await frame.getAttribute('data-overflowing')).toBeNull();
    expect(await shownVersion(page, long)).toEqual({ text: long, lines: expect.any(Number), partsWhole: true });
    expect(await axeViolations(page)).toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });

  it('keeps a remote’s releases readable from 600 to 1000 px: no page scroll, each action’s words whole', async () => {
    await publishTwo(suite.server);
    // The widest row: a long version (a build id, without a break in it), offered to activate and preview.
    const long = '2026.11.29-build.1742+sha.0740d3c4';
    const token = await addToken(suite.server, 'team_marketing');
    await publish(suite.server, token, long, `${suite.server.url}/remotes/team_marketing/mf-manifest.json`);
    const { page, log } = await suite.newPage({ viewport: { width: 600, height: 800 } });
    await signIn(page);
    for (const width of [600, 768, 900, 1000]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/releases');
      const frame = page.getByRole('region', { name: 'Releases of team_marketing' });
      // Named with the version still, for a screen reader.
      await frame.getByRole('button', { name: `Activate ${long}` }).waitFor();
      const seen = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        // The lines each action's visible words take: one, not a version broken letter by letter.
        lines: [...document.querySelectorAll('.table--releases .table__actions .button')].map((button) => {
          const words = document.createRange();
          words.selectNodeContents(button.firstChild!);
          return `${button.firstChild!.textContent}: ${words.getClientRects().length}`;
        }),
      }));
      expect([width, seen.page]).toEqual([width, width]);
      expect([width, await shownVersion(page, long)]).toEqual([
        width,
        { text: long, lines: expect.any(Number), partsWhole: true },
      ]);
      expect(seen.lines).toEqual([
        'Activate: 1',
        'Preview: 1',
        'Activate: 1',
        'Preview: 1',
        'Activate: 1',
        'Preview: 1',
      ]);
      // A table wider than its frame scrolls in it, the frame marked (its actions pinned, their shadow shown); a pixel
      // of rounding is no scroll, as useOverflowing counts it.
      await page.waitForFunction(() => {
        const element = document.querySelector('[aria-label="Releases of team_marketing"]')!;
        const wider = element.scrollWidth > element.clientWidth + 1;
        return wider === element.hasAttribute('data-overflowing');
      });
    }
    expect(await axeViolations(page)).toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });

  it('says on every page that it runs a release the session previews, and stops the preview from there', async () => {
    const [, second] = await publishTwo(suite.server);
    const { page, log } = await suite.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(page);
    const previewed = await page.request.post('/api/remotes/team_marketing/preview', { data: { version: '2.0.0' } });
    expect(previewed.status()).toBe(200);

    for (const address of ['/', '/resources/articles']) {
      await page.goto(address);
      const notice = page.locator('[data-preview-notice]');
      await notice.waitFor();
      expect(await notice.locator('p').innerText()).toBe(
        'This page runs release 2.0.0 of team_marketing, which your session previews: everyone else gets the ' +
          'releases in force.',
      );
    }
    await page.goto('/');
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard');
    expect(await marketingEntry(page)).toBe(`${second.url}/mf-manifest.json`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);

    // Stopped from the notice: the page loads again with the build everyone gets, and says nothing more.
    await page.getByRole('button', { name: 'Stop previewing' }).click();
    await page.waitForFunction(
      (id) => !document.getElementById(id)?.textContent?.includes('previewedVersion'),
      BOOT_DATA_ELEMENT_ID,
    );
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard');
    expect(await marketingEntry(page)).toMatch(/^\/remotes\/team_marketing\//);
    expect(await page.locator('[data-preview-notice]').count()).toBe(0);
    expect(log.pageErrors).toEqual([]);
  });

  it('gives a canary to someone who signs in on the sign-in page, without a reload by hand', async () => {
    const [first, second] = await publishTwo(suite.server);
    const operator = await suite.newPage();
    await signIn(operator.page);
    const request = operator.page.request;
    const activated = await request.post('/api/remotes/team_marketing/activate', { data: { version: '1.0.0' } });
    expect(activated.status()).toBe(200);
    const canary = await request.post('/api/remotes/team_marketing/canary', {
      data: { version: '2.0.0', percent: 0, tenants: ['acme'] },
    });
    expect(canary.status()).toBe(200);

    // Signed out, the sign-in page runs 1.0.0 (its public slots); signed in to acme, the server gives 2.0.0.
    const { page, log } = await suite.newPage();
    await page.goto('/login');
    await waitForSlot(page, 'login-before-form', 'LoginNotice');
    expect(await marketingEntry(page)).toBe(`${first.url}/mf-manifest.json`);
    log.clear();
    await signIn(page);
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard');
    // The page was loaded again in the new session: its boot data, and the remote's files, are the canary's.
    expect(await marketingEntry(page)).toBe(`${second.url}/mf-manifest.json`);
    expect(log.requests.filter((each) => each.origin === second.url).length).toBeGreaterThan(0);
    expect(log.requests.filter((each) => each.origin === first.url)).toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });

  it('shows other staff neither the link nor the page, and the API refuses them', async () => {
    const password = 'a clerk password of some length';
    await runCommand(suite.server, ['user:add', '--', 'clerk', '--tenant', 'acme'], `${password}\n`);
    const { page } = await suite.newPage();
    await signIn(page, { username: 'clerk', password });
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByRole('link', { name: 'Releases' }).count()).toBe(0);

    await page.goto('/releases');
    await page.getByRole('heading', { name: 'Operators only', level: 1 }).waitFor();
    expect((await page.request.get('/api/remotes/releases')).status()).toBe(403);
    expect((await page.request.get('/api/remotes/team_marketing/history')).status()).toBe(403);
  });
});
