import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * What the shared `visually-hidden` class hides takes no room on the screen in Chromium, whatever the element: a
 * button kept the browser's padding and border, a clipped box of 16 x 6 px over the row (the way to the bulk
 * actions before it has the focus), and a paragraph its margins.
 */
jest.setTimeout(60_000);

const suite = useBrowserSuite();

it('makes a hidden button, paragraph and span each a box of 1 px at most, with no padding, border or margin', async () => {
  const { page } = await suite.newPage();
  await signIn(page);
  await page.goto('/resources/authors');
  await waitForSettledPage(page);
  // The way to the bulk actions is a hidden button after the box ticked last; the count is said by a hidden paragraph.
  await page.getByRole('checkbox', { name: 'Select Ada Lovelace' }).check();
  await page.locator('section.bulk-actions').waitFor();

  const hidden = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.visually-hidden')].map((element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return {
        tag: element.tagName.toLowerCase(),
        // 1 px, or none inside what is not shown.
        small: box.width <= 1 && box.height <= 1,
        spacing: [style.paddingTop, style.paddingRight, style.borderTopWidth, style.borderLeftWidth].join(' '),
        margin: style.marginTop,
      };
    }),
  );
  expect(hidden.map((each) => each.tag)).toEqual(expect.arrayContaining(['button', 'p', 'span']));
  for (const each of hidden) {
    expect(each).toEqual({ tag: each.tag, small: true, spacing: '0px 0px 0px 0px', margin: '-1px' });
  }
  // Still read out: named as before, and the count said.
  await page.getByRole('button', { name: 'Go to the actions for the selected author' }).waitFor({ state: 'attached' });
  await expect(page.locator('[data-bulk-selection][role="status"]').textContent()).resolves.toBe(
    '1 author ticked for an action.',
  );
});
