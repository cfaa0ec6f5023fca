import type { Route } from 'playwright-core';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { waitForSlot } from '../../testing/system/slot-page';
import { waitForSettledPage } from '../../testing/system/staff-pages';
import {
  expectToolsUnavailableButTenantSwitchWorks,
  STATUS_LINE,
  UNAVAILABLE_TOOLS_MESSAGE,
} from '../../testing/system/unavailable-tools';

jest.setTimeout(90_000);

const suite = useBrowserSuite();

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
