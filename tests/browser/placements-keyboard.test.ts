import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { PLACEMENTS_LOCATION, waitForFocus } from '../../testing/system/placements-page';
import { signIn } from '../../testing/system/sign-in';

/**
 * The placements editor by keyboard alone, in Chromium on a real server, on a desktop and a phone: slots removed one
 * Enter at a time with the focus kept in a sensible place, and a publish asked first in a dialog that Escape leaves.
 */
jest.setTimeout(180_000);

const suite = useBrowserSuite();

const LOCATION = PLACEMENTS_LOCATION;

describe.each([1280, 390])('by keyboard at %i px', (width) => {
  it('removes one slot per Enter, the focus on the location after it, and publishes only once confirmed', async () => {
    const { page, log } = await suite.newPage({ viewport: { width, height: 844 } });
    await signIn(page);
    await page.goto(`/placements?location=${LOCATION}`);
    const section = page.locator(`[data-placements-location="${LOCATION}"]`);
    const cards = section.locator('li[data-placement-slot]');
    const countIs = (count: number) =>
      page.waitForFunction(
        ([location, expected]) =>
          document.querySelectorAll(`[data-placements-location="${location}"] li[data-placement-slot]`).length ===
          expected,
        [LOCATION, count] as const,
      );
    // Two slots added at the default priority: the last two cards.
    const before = await cards.count();
    for (const count of [before + 1, before + 2]) {
      await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:WelcomeCard');
      await section.getByRole('button', { name: 'Add', exact: true }).click();
      await countIs(count);
    }
    const first = `WelcomeCard (team_marketing) #${before + 1}`;
    await section.getByRole('button', { name: `Remove ${first} at ${LOCATION}` }).focus();
    await page.keyboard.press('Enter');
    await countIs(before + 1);
    // On the location's heading, not on the Remove button of the slot that took the removed one's place.
    await waitForFocus(page, `[id="placements-${LOCATION}"]`);
    await section.getByText(`Removed ${first} from ${LOCATION}: ${before + 1} slot`).waitFor({ state: 'attached' });
    await page.keyboard.press('Enter');
    expect(await cards.count()).toBe(before + 1);
    // The slot left gets its required title, so the draft can be published.
    const left = cards.nth(before);
    await left.getByText(`Props of ${first}`).click();
    await left.getByRole('textbox', { name: /title/i }).fill('Kept by keyboard');

    // Publish asks first, on Cancel; Escape leaves it and the focus back on Publish, nothing published.
    const publish = page.getByRole('button', { name: 'Publish' });
    const revisions = async () =>
      ((await (await page.request.get('/api/placements/revisions')).json()) as { revisions: unknown[] }).revisions
        .length;
    const published = await revisions();
    await publish.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Publish the draft?' });
    await dialog.waitFor();
    await expect(dialog.locator('[data-placements-publish-question]').innerText()).resolves.toMatch(
      /unsaved changes are saved first/i,
    );
    await page.waitForFunction(() => document.activeElement?.textContent === 'Cancel');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.matches('.placements__actions .button--primary') === true);
    expect(await revisions()).toBe(published);

    // Confirmed: published, announced beside Publish, which keeps the focus.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: /Revision \d+ published/ })
      .waitFor();
    await page.waitForFunction(() => document.activeElement?.matches('.placements__actions .button--primary') === true);
    expect(await revisions()).toBe(published + 1);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(log.pageErrors).toEqual([]);
  });
});
