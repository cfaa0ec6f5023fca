import type { Locator, Page, Response } from 'playwright-core';
import { locationSelector } from './slot-page';

/** The tenant switcher in the header, whichever renders it: the remote's slot, or the host's own in its place. */
export function tenantSwitcher(page: Page): Locator {
  return page.locator(`${locationSelector('tenant-switcher')} form.tenant-switcher`);
}

/** Resolves with the answer to the next POST /tenant. */
export function tenantSwitchAnswer(page: Page): Promise<Response> {
  return page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/tenant',
  );
}

/**
 * Switches tenant from the keyboard alone: focus the list, arrow down to the next tenant (which must switch
 * nothing), Tab to Switch, Enter. Resolves with the answer to POST /tenant.
 */
export async function switchTenantByKeyboard(page: Page): Promise<Response> {
  const switcher = tenantSwitcher(page);
  await switcher.locator('select[name="tenant"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  const answer = tenantSwitchAnswer(page);
  await page.keyboard.press('Enter');
  return answer;
}
