import type { Route } from 'playwright-core';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { locationSelector, waitForSlot } from '../../testing/system/slot-page';
import { waitForSettledPage } from '../../testing/system/staff-pages';
import {
  expectToolsUnavailableButTenantSwitchWorks,
  STATUS_LINE,
  UNAVAILABLE_TOOLS_MESSAGE,
} from '../../testing/system/unavailable-tools';

jest.setTimeout(90_000);

const suite = useBrowserSuite();

/**
 * The shell waits at most 150 ms for the page's remote modules; this leaves room for a loaded CI machine, and is
 * still far from the 4 s a hanging remote's entry takes to time out.
 */
const SHELL_SHOWN_WITHIN_MS = 2_500;

/** Every file of team_records, the remote of the tenant switcher, as the browser fetches it. */
const RECORDS_REMOTE_FILES = '**/remotes/team_records/**';

describe('when the remote of the tenant switcher does not load', () => {
  it('(unreachable) shows a quiet notice and the host’s own tenant switcher', async () => {
    const { page } = await suite.newPage();
    await page.route(RECORDS_REMOTE_FILES, (route) => route.abort('connectionrefused'));
    await signIn(page);
    await expectToolsUnavailableButTenantSwitchWorks(page);
  });

  it('(too slow) does the same once the remote’s time is up', async () => {
    const { page } = await suite.newPage();
    const held: Route[] = [];
    // Accepted and never answered, like a remote that hangs.
    await page.route(RECORDS_REMOTE_FILES, (route) => void held.push(route));
    await signIn(page);
    await expectToolsUnavailableButTenantSwitchWorks(page, 20_000);
    expect(held.length).toBeGreaterThan(0);
  });

  it('(hanging) keeps a fresh page waiting for it a moment only: the shell renders while the remote still hangs', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    const held: Route[] = [];
    await page.route(RECORDS_REMOTE_FILES, (route) => void held.push(route));
    // A new page load: the shell waits for the modules the page is loading (host/bootstrap.tsx), but not for long.
    // Not until `load`, which the held scripts never let happen.
    await page.goto('/', { waitUntil: 'commit' });
    await page.locator('main h1', { hasText: 'Dashboard' }).waitFor({ timeout: SHELL_SHOWN_WITHIN_MS });
    const shownAtMs = await page.evaluate(() => performance.now());
    // Well before the remote's own time is up (the entry's 4 s timeout, then a retry), and the remote still held.
    expect(shownAtMs).toBeLessThan(SHELL_SHOWN_WITHIN_MS);
    expect(held.length).toBeGreaterThan(0);
    // Its slot is still loading: the shell did not wait for it.
    const placeholder = page.locator(`${locationSelector('tenant-switcher')} .slot-loading`);
    expect(await placeholder.count()).toBe(1);
    // Its placeholder shimmers, unless the person asked for less motion.
    const animation = () => placeholder.evaluate((element) => getComputedStyle(element).animationName);
    expect(await animation()).toBe('slot-shimmer');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await animation()).toBe('none');
    // The public slots of the other remote are there as usual.
    await waitForSlot(page, 'global-before-content', 'SystemStatus');
  });

  it('shows no notice when every tool renders', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    await waitForSettledPage(page);
    expect(await page.getByText(UNAVAILABLE_TOOLS_MESSAGE).count()).toBe(0);
    expect(await page.locator('[data-host-tenant-switcher]').count()).toBe(0);
    expect(await page.locator('main .status-line .status-line__state').innerText()).toBe('Operational');
    expect(await page.locator('main .status-line .status-line__text').innerText()).toBe(STATUS_LINE.allWell);
    expect(await page.locator('html').getAttribute('data-slots-tools-unavailable')).toBeNull();
  });
});
