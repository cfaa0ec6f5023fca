import type { Locator, Page } from 'playwright-core';

/** The location the placements editor's browser tests work at: the dashboard's, below its cards. */
export const PLACEMENTS_LOCATION = 'dashboard-after-cards';

const LOCATION = PLACEMENTS_LOCATION;

/** Publish from the toolbar, confirmed in the app's dialog, and wait for the revision to be announced. */
export async function publishAndWait(page: Page, announcement: RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('dialog', { name: 'Publish the draft?' }).getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('status').filter({ hasText: announcement }).waitFor();
}

/** Whether the element the selector finds has the focus, waited for. */
export async function waitForFocus(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((found) => document.activeElement === document.querySelector(found), selector);
}

/** Starts recording each text the element takes from now on (what a screen reader reads out of a live region). */
export async function recordTexts(page: Page, selector: string): Promise<() => Promise<string[]>> {
  const key = await page.evaluate((found) => {
    const element = document.querySelector(found)!;
    const texts: string[] = [];
    const id = `said-${Math.random()}`;
    (window as unknown as Record<string, string[]>)[id] = texts;
    let last = element.textContent ?? '';
    new MutationObserver(() => {
      const text = element.textContent ?? '';
      if (text !== last) texts.push(text);
      last = text;
    }).observe(element, { subtree: true, childList: true, characterData: true });
    return id;
  }, selector);
  return () => page.evaluate((id) => [...(window as unknown as Record<string, string[]>)[id]!], key);
}

export async function addWelcomeCard(page: Page): Promise<Locator> {
  const section = page.locator(`[data-placements-location="${LOCATION}"]`);
  await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:WelcomeCard');
  await section.getByRole('button', { name: 'Add', exact: true }).click();
  // The focus goes on with the card added (its priority).
  await page.waitForFunction(() => document.activeElement?.closest('li[data-placement-slot]') != null);
  return section.locator('li[data-placement-slot="team_marketing:WelcomeCard"]');
}

/** The location's section after a WelcomeCard and then a MaintenanceNotice were added (the notice is #2). */
export async function addWelcomeCardAndNotice(page: Page): Promise<Locator> {
  const section = page.locator(`[data-placements-location="${LOCATION}"]`);
  await addWelcomeCard(page);
  await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:MaintenanceNotice');
  await section.getByRole('button', { name: 'Add', exact: true }).click();
  return section;
}
