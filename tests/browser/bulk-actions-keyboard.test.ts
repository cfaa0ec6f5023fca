import type { Page } from 'playwright-core';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';
import { focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * A list's bulk actions by the keyboard: reached from the box just ticked, though the bar is above the rows; and the
 * list's Undo is for its last delete, a bulk one's or a row's, not for both at once.
 */
jest.setTimeout(90_000);

const suite = useBrowserSuite();

const BAR = 'section.bulk-actions[aria-label="Act on selected authors"]';

/**
 * The focused element: its text, whether it is in the bulk bar, and whether it shows on the screen with its ring,
 * whole (its four edges are what is seen at their place: not cut by the table's scrolling frame, nor covered).
 */
function focusedPlace(page: Page): Promise<{ text: string; inBar: boolean; shown: boolean }> {
  return page.evaluate((bar) => {
    const focused = document.activeElement as HTMLElement;
    const box = focused.getBoundingClientRect();
    const style = getComputedStyle(focused);
    const [middleX, middleY] = [box.left + box.width / 2, box.top + box.height / 2];
    const seenAt = (x: number, y: number) => focused.contains(document.elementFromPoint(x, y));
    return {
      text: (focused.textContent ?? '').trim(),
      inBar: focused.closest(bar) !== null,
      shown:
        box.width > 24 &&
        box.height >= 24 &&
        box.top >= 0 &&
        box.bottom <= window.innerHeight &&
        box.left >= 0 &&
        box.right <= window.innerWidth &&
        seenAt(box.left + 2, middleY) &&
        seenAt(box.right - 2, middleY) &&
        seenAt(middleX, box.top + 2) &&
        seenAt(middleX, box.bottom - 2) &&
        style.outlineStyle === 'solid' &&
        parseFloat(style.outlineWidth) >= 2,
    };
  }, BAR);
}

/**
 * Where the focused way to the bulk actions shows, against the actions cell it is in (px, rounded): its right edge
 * from the cell's left (beside the box), its top from the cell's top and its middle from the cell's middle, and how
 * many lines its words take.
 */
function wayPlace(page: Page): Promise<{ right: number; top: number; middle: number; lines: number }> {
  return page.evaluate(() => {
    const way = document.activeElement as HTMLElement;
    const box = way.getBoundingClientRect();
    const cell = way.closest('td, th')!.getBoundingClientRect();
    const style = getComputedStyle(way);
    const inner = box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - 2;
    return {
      right: Math.round(box.right - cell.left),
      top: Math.round(box.top - cell.top),
      middle: Math.round(box.top + box.height / 2 - (cell.top + cell.height / 2)),
      lines: Math.round(inner / parseFloat(style.lineHeight)),
    };
  });
}

async function createAuthors(page: Page, titles: string[]): Promise<void> {
  for (const title of titles) {
    const created = await fetchInPage(page, '/api/resources/authors/records', {
      method: 'POST',
      body: { title, label: 'Bulk' },
    });
    expect(created.status).toBe(201);
  }
}

describe.each([
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 360, height: 740 }],
])('the bulk actions on a %s', (_label, viewport) => {
  it('are one Tab away from the box just ticked, a row’s or the whole page’s, the count still said', async () => {
    const { page } = await suite.newPage({ viewport });
    await signIn(page);
    await page.goto('/resources/authors');
    await waitForSettledPage(page);
    const rows = await page.locator('main tbody tr').count();
    const announced = page.locator('[data-bulk-selection][role="status"]');

    await page.getByRole('checkbox', { name: 'Select Ada Lovelace' }).focus();
    await page.keyboard.press('Space');
    await page.locator(BAR).waitFor();
    await expect(announced.textContent()).resolves.toBe('1 author ticked for an action.');
    await page.keyboard.press('Tab');
    expect(await focusedPlace(page)).toEqual({
      text: 'Go to the actions for the selected author',
      inBar: false,
      shown: true,
    });
    // Beside the row's box, over the cells before it, its words on one line (on a phone, two within 12rem).
    expect(await wayPlace(page)).toMatchObject({ right: 8, middle: 0, lines: viewport.width < 600 ? 2 : 1 });
    await page.keyboard.press('Enter');
    expect(await focusedPlace(page)).toMatchObject({ inBar: true, shown: true });
    expect(await focusedElement(page)).toMatchObject({ tag: 'select' });

    // A second row: the way is after its box now, and a box not ticked last keeps its two stops (Edit, Delete).
    await page.getByRole('checkbox', { name: 'Select Grace Hopper' }).focus();
    await page.keyboard.press('Space');
    await expect(announced.textContent()).resolves.toBe('2 authors ticked for an action.');
    await page.keyboard.press('Tab');
    expect(await focusedPlace(page)).toMatchObject({ text: 'Go to the actions for the selected authors' });
    await page.getByRole('checkbox', { name: 'Select Ada Lovelace' }).focus();
    await page.keyboard.press('Tab');
    expect(await focusedPlace(page)).toMatchObject({ text: 'Edit Ada Lovelace' });
    expect(await page.getByRole('button', { name: /^Go to the actions/ }).count()).toBe(1);

    // The whole page, from the header's box.
    await page.getByRole('checkbox', { name: `Select all ${rows} on this page` }).focus();
    await page.keyboard.press('Space');
    await expect(announced.textContent()).resolves.toBe(`${rows} authors ticked for an action.`);
    await page.keyboard.press('Tab');
    expect(await focusedPlace(page)).toEqual({
      text: 'Go to the actions for the selected authors',
      inBar: false,
      shown: true,
    });
    // Hung from the header's top, beside its box.
    expect(await wayPlace(page)).toMatchObject({ right: 8, top: 4, lines: viewport.width < 600 ? 2 : 1 });
    await page.keyboard.press('Enter');
    expect(await focusedPlace(page)).toMatchObject({ inBar: true, shown: true });
  });
});

describe('the Undo of a list', () => {
  it('is for its last delete: a row’s replaces a bulk delete’s, and a bulk delete replaces a row’s', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await createAuthors(page, ['Bulk one', 'Bulk two', 'Bulk three']);
    await page.goto('/resources/authors?search=bulk');
    await waitForSettledPage(page);
    const outcome = page.locator('.bulk-actions__outcome');
    const recordNotice = page.locator('.deleted-notice');
    const deleteFromRow = async (title: string) => {
      await page.getByRole('button', { name: `Delete ${title}` }).focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await recordNotice.getByText(`Deleted “${title}”.`).waitFor();
    };

    await deleteFromRow('Bulk one');
    await page.getByRole('checkbox', { name: 'Select Bulk two' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Delete selected' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await outcome.getByText('Deleted 1 of 1 author.').waitFor();
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Undo delete' });
    expect(await recordNotice.count()).toBe(0);

    await deleteFromRow('Bulk three');
    expect(await outcome.textContent()).toBe('');
    expect(await page.getByRole('button', { name: 'Undo delete' }).count()).toBe(0);
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Undo' });
    await page.keyboard.press('Enter');
    await recordNotice.getByText('Restored “Bulk three”.').waitFor();
    await page.getByRole('link', { name: 'Bulk three', exact: true }).waitFor();
  });
});
