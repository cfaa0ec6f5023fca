import type { Page } from 'playwright-core';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { firstRecord, scrollsSideways, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(180_000);

const suite = useBrowserSuite();

/** A phone held upright, as staff use the admin away from a desk: touch, 390 px wide; and a narrower one. */
const PHONE = { width: 390, height: 844 };
const NARROW_PHONE = { width: 360, height: 740 };

/**
 * What a page shows on a phone that a finger or iOS gets wrong: each control or link smaller than 24 by 24 px
 * (WCAG 2.5.8), a link in a sentence aside (the criterion's own exception); each text field, choice or text area
 * whose text is under 16 px (iOS Safari zooms the page into it on focus, and the page is left scrolling sideways).
 */
function phoneProblems(page: Page): Promise<{ smallTargets: string[]; zoomingFields: string[] }> {
  return page.evaluate(() => {
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    };
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? element.getAttribute('name') ?? '').trim().slice(0, 40)}"`;
    // A link in running text: laid out inline, among more text than its own.
    const inSentence = (element: Element) =>
      element.tagName === 'A' &&
      getComputedStyle(element).display === 'inline' &&
      (element.parentElement?.textContent ?? '').trim().length > (element.textContent ?? '').trim().length + 2;
    const smallTargets: string[] = [];
    const zoomingFields: string[] = [];
    const targets = document.querySelectorAll(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"]',
    );
    for (const target of targets) {
      // The skip link waits off screen until it has the focus.
      if (!shown(target) || target.matches('.skip-link')) continue;
      const box = target.getBoundingClientRect();
      if ((box.width < 24 || box.height < 24) && !inSentence(target)) {
        smallTargets.push(`${name(target)} ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
      const field =
        target.matches('select, textarea') ||
        (target instanceof HTMLInputElement && !/^(checkbox|radio|submit|button|file|range|color)$/.test(target.type));
      if (field && parseFloat(getComputedStyle(target).fontSize) < 16) {
        zoomingFields.push(`${name(target)} ${getComputedStyle(target).fontSize}`);
      }
    }
    return { smallTargets, zoomingFields };
  });
}

async function expectFitsAPhone(page: Page, name: string, width: number): Promise<void> {
  await waitForSettledPage(page);
  expect({ page: name, width, scrollsSideways: await scrollsSideways(page), ...(await phoneProblems(page)) }).toEqual({
    page: name,
    width,
    scrollsSideways: false,
    smallTargets: [],
    zoomingFields: [],
  });
}

/** The pages staff open on a phone, with the states that have markup of their own (a form's refusal, an open panel). */
async function phonePages(page: Page) {
  const article = await firstRecord(page, 'articles');
  return [
    { name: 'dashboard', path: '/' },
    {
      name: 'articles with their filters and settings open',
      path: '/resources/articles?search=spring',
      prepare: async () => {
        await page.locator('summary', { hasText: 'Filters' }).click();
        await page.locator('summary', { hasText: 'Columns and rows' }).click();
      },
    },
    { name: 'authors', path: '/resources/authors?sort=email&order=desc' },
    { name: 'article', path: `/resources/articles/${article.id}` },
    {
      name: 'article edit with a refused save',
      path: `/resources/articles/${article.id}/edit`,
      prepare: async () => {
        await page.locator('form[data-resource-form] [name="title"]').fill('');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByRole('alert').getByText('needs attention').waitFor();
      },
    },
    { name: 'new article', path: '/resources/articles/new' },
    { name: 'recently deleted articles', path: '/resources/articles/deleted' },
    { name: 'placements', path: '/placements' },
    { name: 'releases', path: '/releases' },
    { name: 'slot inspector', path: '/inspect' },
    { name: 'record not found', path: '/resources/articles/999999' },
    { name: 'unknown address', path: '/settings' },
  ];
}

describe.each([
  ['390', PHONE],
  ['360', NARROW_PHONE],
])('on a %s px phone', (_label, viewport) => {
  it('no page scrolls sideways, every control is a 24 px target, no field makes iOS zoom, and axe finds nothing', async () => {
    const { page } = await suite.newPage({ viewport, isMobile: true, hasTouch: true });
    await page.goto('/login');
    await expectFitsAPhone(page, 'sign-in', viewport.width);
    await signIn(page);
    for (const { name, path, prepare } of await phonePages(page)) {
      await page.goto(path);
      await waitForSettledPage(page);
      await prepare?.();
      await expectFitsAPhone(page, name, viewport.width);
      if (viewport === PHONE) expect({ page: name, axe: await axeViolations(page) }).toEqual({ page: name, axe: [] });
    }
  });
});

it('shows the current page’s link in the navigation row, whichever page a phone opens', async () => {
  const { page } = await suite.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
  await signIn(page);
  for (const [path, label] of [
    ['/placements', 'Placements'],
    ['/locations', 'Locations'],
    ['/inspect', 'Slot inspector'],
    ['/', 'Dashboard'],
  ] as const) {
    await page.goto(path);
    await waitForSettledPage(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const current = nav.getByRole('link', { name: label, exact: true });
    await expect(current.getAttribute('aria-current')).resolves.toBe('page');
    const [row, link] = await Promise.all([nav.boundingBox(), current.boundingBox()]);
    if (!row || !link) throw new Error(`The navigation or its ${label} link is not shown on ${path}.`);
    expect({ path, inView: link.x >= row.x && link.x + link.width <= row.x + row.width }).toEqual({
      path,
      inView: true,
    });
    // The row scrolled, not the page: the page's heading is still at the top.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  }
});
