import type { Request } from 'playwright-core';
import { nameOf } from '../../testing/system/accessibility-tree';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { DEMO_PASSWORD, DEMO_USERNAME } from '../../testing/system/app-server';
import { signIn } from '../../testing/system/sign-in';
import { firstRecord, focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * The records pages as staff who work by keyboard with a screen reader meet them, in Chromium on a real server:
 * rows per page browsed with the arrows, the words column headings and field names are read with, and the document
 * title on the way from the sign-in page to the list asked for.
 */
jest.setTimeout(90_000);

const suite = useBrowserSuite();

const isListRead = (request: Request) => new URL(request.url()).pathname === '/api/resources/articles/records';

describe('rows per page', () => {
  it('reloads the list once, for the size the arrows stopped on, when Enter or Tab commits it', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    const reads: string[] = [];
    page.on('request', (request) => {
      if (isListRead(request)) reads.push(new URL(request.url()).searchParams.get('limit') ?? 'default');
    });
    const summary = page.locator('main summary', { hasText: 'Columns and rows' });
    await summary.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const select = page.getByRole('combobox', { name: 'Rows per page' });
    expect(await select.evaluate((element) => element === document.activeElement)).toBe(true);

    // 25 (the default), then 50 and 100 passed by the arrows: nothing asked of the server on the way.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await select.inputValue()).toBe('100');
    await page.waitForTimeout(500);
    expect(reads).toEqual([]);

    const sized = page.waitForRequest((request) => isListRead(request));
    await page.keyboard.press('Enter');
    await sized;
    await waitForSettledPage(page);
    expect(reads).toEqual(['100']);

    // Back up to 10 and away with Tab: the size is applied as the focus leaves.
    await select.focus();
    for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowUp');
    expect(await select.inputValue()).toBe('10');
    await page.waitForTimeout(300);
    expect(reads).toEqual(['100']);
    const left = page.waitForRequest((request) => isListRead(request));
    await page.keyboard.press('Tab');
    await left;
    expect(reads).toEqual(['100', '10']);
    expect(await focusedElement(page)).toMatchObject({ tag: 'input' });
  });
});

describe('the words of the records pages', () => {
  it('are given to screen readers as the definition writes them, not in the capitals drawn', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    const headers = page.locator('main table thead th');
    const names = [];
    for (const header of await headers.all()) names.push(await nameOf(header));
    expect(names.slice(0, 3)).toEqual(['Title', 'Label', 'Group']);
    expect(names.at(-1)).toBe('Actions Select all 4 on this page');
    expect(await nameOf(page.getByRole('button', { name: 'Title', exact: true }))).toBe('Title');
    // Still drawn in capitals.
    expect(await headers.first().evaluate((header) => getComputedStyle(header).fontVariantCaps)).toBe('all-small-caps');

    const article = await firstRecord(page, 'articles');
    await page.goto(`/resources/articles/${article.id}`);
    await waitForSettledPage(page);
    const term = page.locator('main .record__field dt').first();
    expect(await nameOf(page.locator('main .record__field').first())).not.toMatch(/^[A-Z ]{3,}$/);
    expect(await term.evaluate((element) => (element as HTMLElement).innerText)).toBe(
      await term.evaluate((element) => element.textContent),
    );
  });
});

describe('the document title after signing in', () => {
  it('is not "Sign in" while the page asked for loads, and names it once shown', async () => {
    const { page } = await suite.newPage();
    // The list's records held back: its heading waits for them, as it did for two seconds on a loaded server.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/resources/articles/records',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto('/resources/articles');
    await page.waitForURL((url) => url.pathname === '/login');
    await waitForSettledPage(page);
    expect(await page.title()).toBe('Sign in · Slots Admin');
    await page.locator('input[name="username"]').fill(DEMO_USERNAME);
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/resources/articles');
    await page.waitForFunction(() => document.querySelector('input[name="password"]') === null);

    expect(await page.title()).toBe('Slots Admin');
    release();
    await page.getByRole('heading', { level: 1, name: 'Articles' }).waitFor();
    expect(await page.title()).toBe('Articles · Slots Admin');
  });
});
