import type { Page } from 'playwright-core';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';
import { waitForList, waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * Staff who work with the keyboard alone page through a list from the pager below its rows: the button they pressed
 * keeps the focus, and stays on the screen with its ring when the new page is longer.
 */
jest.setTimeout(90_000);

const suite = useBrowserSuite();

/** The focused element's text, and whether it is inside the viewport with its focus ring (the ring's own width). */
function focusedOnScreen(page: Page): Promise<{ text: string; inPagerBelow: boolean; ringOnScreen: boolean }> {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement;
    const box = focused.getBoundingClientRect();
    const style = getComputedStyle(focused);
    const ring = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
    return {
      text: (focused.textContent ?? '').trim(),
      inPagerBelow: focused.closest('nav[aria-label$=", after the list"]') !== null,
      ringOnScreen: ring > 0 && box.top - ring >= 0 && box.bottom + ring <= window.innerHeight,
    };
  });
}

describe('the pager below the rows', () => {
  it('keeps the button pressed on the screen, with its focus ring, when a longer page pushes it down', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    // 3 demo authors and 30 more: a first page of 25 rows, a second of 8.
    for (let index = 0; index < 30; index++) {
      const created = await fetchInPage(page, '/api/resources/authors/records', {
        method: 'POST',
        body: { title: `Paged author ${index}`, label: 'Paged' },
      });
      expect(created.status).toBe(201);
    }
    await page.goto('/resources/authors');
    await waitForSettledPage(page);

    const below = page.getByRole('navigation', { name: 'Pages of authors, after the list' });
    await below.getByRole('button', { name: 'Next page' }).focus();
    await page.keyboard.press('Enter');
    await waitForList(page, (url) => url.searchParams.has('after'));
    // Back to the first page from the same pager: its 25 rows push the pager far below where it was.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await waitForList(page, (url) => url.searchParams.has('before'));
    await expect(page.locator('main tbody tr').count()).resolves.toBe(25);

    expect(await focusedOnScreen(page)).toEqual({ text: '← Previous page', inPagerBelow: true, ringOnScreen: true });
  });
});
