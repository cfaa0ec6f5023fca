import type { Page } from 'playwright-core';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';
import { waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * A control reached by the keyboard is scrolled into view whole, its focus ring included, in Chromium at small
 * windows: a row's Delete half out of the window stopped at the window's edge with its ring cut off, and one half
 * under the sticky bulk bar, wrapped onto several lines below a wide window's width, took the focus unseen.
 */
jest.setTimeout(90_000);

const suite = useBrowserSuite();

/** The ring drawn around a focused control (shell.css: a 2 px outline 2 px off it). */
const RING = 4;

async function listOfAuthors(page: Page): Promise<void> {
  await signIn(page);
  for (let index = 1; index <= 20; index++) {
    const created = await fetchInPage(page, '/api/resources/authors/records', {
      method: 'POST',
      body: { title: `Author ${String(index).padStart(2, '0')}`, label: 'Focus' },
    });
    expect(created.status).toBe(201);
  }
  await page.goto('/resources/authors');
  await waitForSettledPage(page);
}

/**
 * Scrolls the window so that row `row`'s Delete is cut in half by `edge` (the window's bottom, or the bulk bar's
 * bottom), puts the focus without scrolling on the control next to it in the Tab order (before it for the bottom
 * edge, after it for the bar), and says how much of it was hidden.
 */
function halfHideDelete(page: Page, row: number, edge: 'bottom' | 'bar'): Promise<number> {
  return page.evaluate(
    ({ row, edge }) => {
      const cell = document.querySelectorAll('main tbody tr')[row]!;
      const button = [...cell.querySelectorAll('button')].find((each) => each.textContent === 'Delete')!;
      const controls = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select')];
      const neighbour = controls[controls.indexOf(button) + (edge === 'bottom' ? -1 : 1)]!;
      const line = () =>
        edge === 'bottom'
          ? window.innerHeight
          : document.querySelector('.bulk-actions')!.getBoundingClientRect().bottom;
      // Twice: the bar sticks to the window's top only once the page is scrolled past its place.
      for (let pass = 0; pass < 2; pass++) {
        const box = button.getBoundingClientRect();
        window.scrollBy(0, box.top + box.height / 2 - line());
      }
      neighbour.focus({ preventScroll: true });
      const moved = button.getBoundingClientRect();
      return edge === 'bottom' ? moved.bottom - line() : line() - moved.top;
    },
    { row, edge },
  );
}

/** Where the focused control is: its name, and its box's top and bottom with the ring, against the bar and window. */
function focusedBox(page: Page): Promise<{ text: string; top: number; bottom: number; below: number; above: number }> {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement;
    const box = focused.getBoundingClientRect();
    return {
      text: focused.textContent ?? '',
      top: box.top,
      bottom: box.bottom,
      below: document.querySelector('.bulk-actions')?.getBoundingClientRect().bottom ?? 0,
      above: window.innerHeight,
    };
  });
}

describe.each([
  ['a phone', { width: 360, height: 640 }],
  ['a small window', { width: 800, height: 500 }],
])('on %s', (_label, viewport) => {
  it('scrolls a Delete half out of the window wholly into view, ring and all, when Tab reaches it', async () => {
    const { page } = await suite.newPage({ viewport });
    await listOfAuthors(page);
    for (const row of [6, 12]) {
      expect(await halfHideDelete(page, row, 'bottom')).toBeGreaterThan(8);
      await page.keyboard.press('Tab');
      const seen = await focusedBox(page);
      expect(seen.text).toBe('Delete');
      expect(seen.bottom + RING).toBeLessThanOrEqual(seen.above);
    }
  });

  it('scrolls a Delete half under the bulk bar wholly below it, ring and all, when Shift+Tab reaches it', async () => {
    const { page } = await suite.newPage({ viewport });
    await listOfAuthors(page);
    await page.getByRole('checkbox', { name: 'Select Ada Lovelace' }).check();
    await page.locator('section.bulk-actions').waitFor();
    for (const row of [12, 16]) {
      expect(await halfHideDelete(page, row, 'bar')).toBeGreaterThan(8);
      await page.keyboard.press('Shift+Tab');
      const seen = await focusedBox(page);
      expect(seen.text).toBe('Delete');
      expect(seen.top - RING).toBeGreaterThanOrEqual(seen.below);
      expect(seen.bottom + RING).toBeLessThanOrEqual(seen.above);
    }
  });
});
