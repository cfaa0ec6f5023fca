import type { Locator, Page } from 'playwright-core';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';

/**
 * The placements editor as a staff member who works by keyboard with a screen reader hears it, in Chromium on a real
 * server: what its live regions say (each change once, nothing stale said again) and what its controls are named and
 * described as in Chromium's accessibility tree.
 */
jest.setTimeout(120_000);

const suite = useBrowserSuite();

const LOCATION = 'dashboard-after-cards';

/** Starts recording each text the element takes from now on (what a screen reader reads out of a live region). */
async function recordTexts(page: Page, selector: string): Promise<() => Promise<string[]>> {
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

async function addWelcomeCard(page: Page): Promise<Locator> {
  const section = page.locator(`[data-placements-location="${LOCATION}"]`);
  await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:WelcomeCard');
  await section.getByRole('button', { name: 'Add', exact: true }).click();
  // The focus goes on with the card added (its priority).
  await page.waitForFunction(() => document.activeElement?.closest('li[data-placement-slot]') != null);
  return section.locator('li[data-placement-slot="team_marketing:WelcomeCard"]');
}

it('does not say an Add again once a refused save is mended', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  const section = page.locator(`[data-placements-location="${LOCATION}"]`);
  const announced = section.locator('p.visually-hidden[role="status"]');
  await addWelcomeCard(page);
  await expect(announced.innerText()).resolves.toMatch(/^Added WelcomeCard \(team_marketing\)/);
  // A priority the draft cannot take: the save is refused, the focus back on the box.
  await page.keyboard.type('abc');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.locator('[data-placements-refused]').waitFor();
  await page.waitForFunction(() => document.activeElement?.id.endsWith('-priority') === true);
  expect(await announced.textContent()).toBe('');
  const said = await recordTexts(page, `[data-placements-location="${LOCATION}"] p.visually-hidden[role="status"]`);
  // Mended: the refusal goes, and the Add, said before it, is not said again as news.
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.locator('[data-placements-refused]').waitFor({ state: 'detached' });
  await page.waitForTimeout(300);
  expect(await said()).toEqual([]);
  expect(await announced.textContent()).toBe('');
  expect(log.pageErrors).toEqual([]);
});
