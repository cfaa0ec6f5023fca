import type { Locator } from 'playwright-core';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * The records' list and form as a staff member who works by keyboard with a screen reader hears them, in Chromium on
 * a real server: what their controls are named in Chromium's accessibility tree, and which of their changes are
 * live (read out as they happen).
 */
jest.setTimeout(90_000);

const suite = useBrowserSuite();

/** The name Chromium gives the element: what a screen reader says for it, before its role and state. */
async function nameOf(locator: Locator): Promise<string> {
  const handle = await locator.elementHandle();
  const node = await locator.page().accessibility.snapshot({ root: handle!, interestingOnly: false });
  return node?.name ?? '';
}

describe('the filters of a list', () => {
  it('are named by their words alone, not by the triangle drawn before them', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    const summary = page.locator('main details.list-filters-disclosure > summary');

    expect(await nameOf(summary)).toBe('Filters (0): none applied');
    await summary.focus();
    await page.keyboard.press('Enter');
    await page.locator('main details.list-filters-disclosure[open]').waitFor();
    expect(await nameOf(summary)).toBe('Filters (0): none applied');
  });
});
