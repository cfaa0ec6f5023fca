import type { Page } from 'playwright-core';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { useBrowserSuite, type BrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';
import { startPostgresHost } from '../multi-host/support/postgres-host';

/**
 * The list's filters by the keyboard alone (Tab, arrow keys, digits, Enter and Space; no mouse, nothing filled in
 * by script): the featured checkbox filter and a range of publication days, with a word search, a sort and the
 * next page, each kept in the address. The demo's acme articles: the spring catalogue (2025-03-20, featured), the
 * headline guide (2023-06-14, not featured), weekly releases (2024-11-02, never ticked), the office relocation (a
 * draft: no day). The first case runs on PostgreSQL too.
 */
jest.setTimeout(90_000);

const SPRING = 'Launching the spring catalogue';
const WEEKLY = 'Why we moved to weekly releases';

/** The address's query, as the test reads what the page keeps. */
function addressOf(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

async function waitForTitles(page: Page, titles: readonly string[]): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      JSON.stringify([...document.querySelectorAll('main tbody tr td:first-child')].map((cell) => cell.textContent)) ===
      JSON.stringify(expected),
    titles,
  );
}

function listStatus(page: Page): Promise<string | null> {
  return page
    .getByRole('status')
    .filter({ hasText: /^(Showing|No )/ })
    .textContent();
}

/**
 * Tabs forward until the focused element is the control named `name` (its name attribute, or a button's text), a
 * few stops at most: a day picker takes a Tab stop per part (month, day, year).
 */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let stop = 0; stop < 16; stop++) {
    const focused = await focusedElement(page);
    if (focused.name === name || (focused.tag === 'button' && focused.text === name)) return;
    if (focused.tag === 'summary' && focused.text.startsWith(name)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${name}; focus is on ${JSON.stringify(await focusedElement(page))}.`);
}

/** Opens the filters folded under "Filters (n)" with Enter, as a keyboard user does. */
async function openFilters(page: Page): Promise<void> {
  await page.locator('main details.list-filters-disclosure > summary').focus();
  await page.keyboard.press('Enter');
  await page.locator('main details.list-filters-disclosure[open]').waitFor();
}

/**
 * The featured box by arrow keys and a range of days typed into the day pickers, applied with Space; the address
 * kept through a reload; the box let go with Enter; a sort by day and a word search, the range staying.
 */
async function filterByKeyboard(suite: BrowserSuite): Promise<void> {
  // en-US: the day pickers take month, day and year, in that order.
  const { page } = await suite.newPage({ locale: 'en-US' });
  await signIn(page);
  await page.goto('/resources/articles');
  await waitForSettledPage(page);

  // From the word search, Tab reaches the filters; arrow keys choose "Not ticked", digits type the days.
  await page.getByRole('searchbox', { name: 'Search articles' }).focus();
  await tabTo(page, 'Filters');
  await page.keyboard.press('Enter');
  await tabTo(page, 'filter.featured');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  expect(await page.getByRole('combobox', { name: 'Featured' }).inputValue()).toBe('false');
  await page.keyboard.press('Tab');
  expect((await focusedElement(page)).name).toBe('filter.published.from');
  await page.keyboard.type('01012024');
  const days = page.getByRole('group', { name: 'Published on' });
  expect(await days.getByLabel('From').inputValue()).toBe('2024-01-01');
  await tabTo(page, 'filter.published.to');
  await page.keyboard.type('12312025');
  await tabTo(page, 'Apply filters');
  await page.keyboard.press('Space');
  await page.waitForURL((url) => url.searchParams.has('filter.published'));
  expect(Object.fromEntries(addressOf(page))).toEqual({
    'filter.featured': 'false',
    'filter.published': '2024-01-01..2025-12-31',
  });
  // Featured is out, and so are the headline guide (2023) and the draft (no day).
  await waitForTitles(page, [WEEKLY]);
  expect(await listStatus(page)).toBe('Showing 1 of 1 article, filtered, oldest first.');

  // A reload shows the same list, the form showing the filters the address holds.
  await page.reload();
  await waitForTitles(page, [WEEKLY]);
  expect(await page.locator('main details.list-filters-disclosure > summary').innerText()).toMatch(/^Filters \(2\)/);
  await openFilters(page);
  expect(await days.getByLabel('From').inputValue()).toBe('2024-01-01');
  expect(await days.getByLabel('To').inputValue()).toBe('2025-12-31');
  expect(await page.getByRole('combobox', { name: 'Featured' }).inputValue()).toBe('false');

  // Back to any featured state with the arrow key; Enter applies. The range alone lets the spring catalogue in.
  await page.getByRole('combobox', { name: 'Featured' }).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await tabTo(page, 'Apply filters');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => !url.searchParams.has('filter.featured'));
  expect(addressOf(page).get('filter.published')).toBe('2024-01-01..2025-12-31');
  await waitForTitles(page, [SPRING, WEEKLY]);

  // Sorted by day, newest first, by the keyboard: the range stays.
  await page.getByRole('button', { name: 'Published on', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.searchParams.get('sort') === 'published');
  await waitForTitles(page, [WEEKLY, SPRING]);
  await page.getByRole('button', { name: 'Published on', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.searchParams.get('order') === 'desc');
  await waitForTitles(page, [SPRING, WEEKLY]);
  expect(addressOf(page).get('filter.published')).toBe('2024-01-01..2025-12-31');
  expect(await listStatus(page)).toBe('Showing 2 of 2 articles, filtered, by published on, descending.');

  // A word search keeps the range (and the sort).
  await page.getByRole('searchbox', { name: 'Search articles' }).focus();
  await page.keyboard.type('weekly');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.searchParams.get('search') === 'weekly');
  expect(addressOf(page).get('filter.published')).toBe('2024-01-01..2025-12-31');
  await waitForTitles(page, [WEEKLY]);
}

describe('filtering a list by the keyboard, on SQLite', () => {
  const suite = useBrowserSuite();

  it('applies the checkbox filter and a range of days, then a sort and a word search, each kept in the address', () =>
    filterByKeyboard(suite));

  it('chooses an author typed in full on an Enter pressed at once, before the search’s pause, then applies it', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    await openFilters(page);
    const author = page.getByRole('combobox', { name: 'Author' });
    await author.focus();
    // Typed and Enter at once, well within the picker's 200 ms wait for a pause in typing.
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('[role="combobox"][aria-expanded="false"]:focus') !== null,
      undefined,
      { timeout: 5_000 },
    );
    expect(await author.inputValue()).toBe('Ada Lovelace');
    // Chosen: the next Enter is the form's, and applies it.
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.has('filter.author'));
  });

  it('pages through a range of days with the next page, the range kept in each page’s address', async () => {
    const { page } = await suite.newPage({ locale: 'en-US' });
    await signIn(page);
    const origin = new URL(page.url()).origin;
    // 26 articles of 2020 (the demo has none): with the default 25 a page, the range fills two pages.
    const made: string[] = [];
    for (let index = 1; index <= 26; index++) {
      const title = `Archive ${String(index).padStart(2, '0')}`;
      const published = `2020-${String(((index - 1) % 12) + 1).padStart(2, '0')}-${String(index).padStart(2, '0')}`;
      const created = await page.request.post('/api/resources/articles/records', {
        data: { title, label: 'Archive', published },
        headers: { Origin: origin },
      });
      expect(created.status()).toBe(201);
      made.push(title);
    }
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    await openFilters(page);
    await page.getByRole('group', { name: 'Published on' }).getByLabel('To').focus();
    await page.keyboard.type('12312020');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('filter.published') === '..2020-12-31');
    await waitForTitles(page, made.slice(0, 25));
    expect(await listStatus(page)).toBe('Showing 25 of 26 articles, filtered, oldest first.');

    await page
      .getByRole('navigation', { name: 'Pages of articles', exact: true })
      .getByRole('button', { name: 'Next page' })
      .focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.has('after'));
    expect(addressOf(page).get('filter.published')).toBe('..2020-12-31');
    await waitForTitles(page, made.slice(25));
  });

  it('gives a draft its day in the edit form by the keyboard, then finds it in a range of that day alone', async () => {
    const { page } = await suite.newPage({ locale: 'en-US' });
    await signIn(page);
    await page.goto('/resources/articles?search=relocation');
    await waitForTitles(page, ['Office relocation']);
    await page.getByRole('link', { name: 'Edit Office relocation', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.endsWith('/edit'));
    const form = page.locator('form[data-resource-form="articles"]');
    await form.getByLabel('Published on').focus();
    await page.keyboard.type('02292024');
    expect(await form.getByLabel('Published on').inputValue()).toBe('2024-02-29');
    await page.keyboard.press('Enter');
    await form.getByRole('status').getByText('Saved.').waitFor();

    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    await openFilters(page);
    const days = page.getByRole('group', { name: 'Published on' });
    for (const end of ['From', 'To']) {
      await days.getByLabel(end).focus();
      await page.keyboard.type('02292024');
    }
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('filter.published') === '2024-02-29..2024-02-29');
    await waitForTitles(page, ['Office relocation']);
    expect(await page.locator('main tbody td time').getAttribute('datetime')).toBe('2024-02-29');
  });
});

describeWithPostgres()('filtering a list by the keyboard, on PostgreSQL', () => {
  // Only its URL is used: the server process opens its own pool.
  const postgres = usePostgresDatabases('browser_filters', { poolSize: 4, statementTimeoutMs: 5000 });
  const suite = useBrowserSuite({ startServer: async () => startPostgresHost((await postgres.create()).url) });

  it('applies the checkbox filter and a range of days, then a sort and a word search, each kept in the address', () =>
    filterByKeyboard(suite));
});
