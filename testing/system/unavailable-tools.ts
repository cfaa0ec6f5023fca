import type { Page } from 'playwright-core';
import { axeViolations } from './axe';
import { SLOT_TIMEOUT_MS } from './slot-page';
import { switchTenantByKeyboard, tenantSwitcher } from './tenant-switch';

/** The host's notice (host/layout/unavailable-tools-notice.tsx). */
export const UNAVAILABLE_TOOLS_MESSAGE =
  'Some tools on this page are unavailable right now. Everything else works; reload the page later to try again.';

/** The demo's status line (team_marketing's SystemStatus): the server's text, and what it says while tools fail. */
export const STATUS_LINE = Object.freeze({
  allWell: 'All systems operational.',
  toolsUnavailable: 'Some tools are unavailable.',
});

/**
 * What a signed-in member of two tenants must get when team_records (the remote of the tenant switcher) does not
 * render: a quiet notice naming nothing internal, a status line that stops saying all is well, the host's own switcher in its place working from the keyboard,
 * and a page that still passes the accessibility rules at desktop and phone widths.
 */
export async function expectToolsUnavailableButTenantSwitchWorks(page: Page, timeoutMs = SLOT_TIMEOUT_MS) {
  const notice = page.locator('main [role="status"]').filter({ hasText: UNAVAILABLE_TOOLS_MESSAGE });
  await notice.waitFor({ timeout: timeoutMs });
  expect(await notice.innerText()).toBe(UNAVAILABLE_TOOLS_MESSAGE);
  const hostSwitcher = tenantSwitcher(page).and(page.locator('[data-host-tenant-switcher]'));
  await hostSwitcher.waitFor({ timeout: timeoutMs });
  // The status line no longer says that all is well.
  const statusLine = page.locator('main .status-line');
  await statusLine.filter({ hasText: STATUS_LINE.toolsUnavailable }).waitFor({ timeout: timeoutMs });
  expect(await statusLine.locator('.status-line__state').innerText()).toBe('Degraded');
  expect(await statusLine.innerText()).not.toContain(STATUS_LINE.allWell);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect({ width, violations: await axeViolations(page) }).toEqual({ width, violations: [] });
  }

  const answer = await switchTenantByKeyboard(page);
  expect(answer.status()).toBe(200);
  await hostSwitcher.getByRole('status').getByText('Switched to Globex.').waitFor();
  await page.locator('[data-dashboard]').getByText('Globex').waitFor({ timeout: SLOT_TIMEOUT_MS });
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Switch');
}
