import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { VIEWER_CANNOT_CHANGE_RECORDS, type RecordListPayload } from '../../shared';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { runCommand } from '../../testing/system/npm-command';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage, SLOT_TIMEOUT_MS } from '../../testing/system/slot-page';
import { firstRecord, focusedElement, scrollsSideways, waitForSettledPage } from '../../testing/system/staff-pages';
import { waitUntil } from '../../testing/server/wait-until';

/**
 * The record lists of issue 51, at a laptop's and a phone's size: the first row within the first screen (filters
 * folded, the bulk bar only with a selection), a word search sorted by a column and by relevance, rows per page and
 * columns remembered, a bulk field change confirmed and undone, bulk actions on every match across pages (of a
 * search by the start of the sorted column too), the CSV export, and a viewer's edit address. One browser for the file, a fresh server per test (useBrowserSuite).
 */
jest.setTimeout(120_000);

const suite = useBrowserSuite();

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** Where the heading and the first row are, in CSS pixels from the top of the page. */
async function positions(page: Page): Promise<{ heading: number; firstRowBottom: number }> {
  return page.evaluate(() => {
    const box = (selector: string) => {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`No ${selector}`);
      const rect = element.getBoundingClientRect();
      return { top: rect.top + window.scrollY, bottom: rect.bottom + window.scrollY };
    };
    return { heading: box('main h1').top, firstRowBottom: box('main table tbody tr').bottom };
  });
}

async function shownTitles(page: Page): Promise<string[]> {
  return page.locator('main tbody tr td:first-child').allTextContents();
}

async function waitForTitles(page: Page, titles: readonly string[]): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      JSON.stringify([...document.querySelectorAll('main tbody tr td:first-child')].map((cell) => cell.textContent)) ===
      JSON.stringify(expected),
    titles,
  );
}

async function addRecords(page: Page, resource: string, records: ReadonlyArray<Record<string, string>>): Promise<void> {
  for (const data of records) {
    const created = await page.request.post(`/api/resources/${resource}/records`, {
      data,
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(created.status()).toBe(201);
  }
}

async function addAuthors(page: Page, titles: readonly string[]): Promise<void> {
  await addRecords(
    page,
    'authors',
    titles.map((title) => ({ title, label: 'Tools', group: 'staff' })),
  );
}

/** How many authors of `query` the API counts (the list's total). */
async function authorsCounted(page: Page, query: string): Promise<number> {
  return (await fetchInPage<RecordListPayload>(page, `/api/resources/authors/records?${query}`)).body.page.total.count;
}

describe.each(WIDTHS)('a record list at the $name width', ({ viewport }) => {
  it('shows the first row within the first screen, filters folded and said, the bulk bar only with a selection', async () => {
    const { page } = await suite.newPage({ viewport });
    await signIn(page);
    await page.goto('/resources/articles?filter.group=news');
    await waitForSettledPage(page);
    const where = await positions(page);
    expect(where.firstRowBottom).toBeLessThanOrEqual(viewport.height);
    // On a phone the header and the navigation (one row there) leave room for the page: 443 px before.
    if (viewport.width < 600) expect(where.heading).toBeLessThan(345);
    const summary = page.locator('main details.list-filters-disclosure > summary');
    expect(await summary.innerText()).toBe('Filters (1): Group: news');
    expect(await page.getByRole('button', { name: 'Apply filters' }).isVisible()).toBe(false);
    expect(await page.locator('section.bulk-actions').count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);

    await summary.click();
    await page.getByRole('button', { name: 'Apply filters' }).waitFor();
    const rowBox = page.locator('main tbody input[type="checkbox"]').first();
    await rowBox.check();
    await page.locator('section.bulk-actions').waitFor();
    const box = await rowBox.boundingBox();
    expect(box && Math.round(box.width) >= 24 && Math.round(box.height) >= 24).toBe(true);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('keeps the bulk bar in view when a row far down the list is ticked, above the row, not over it', async () => {
    const { page } = await suite.newPage({ viewport });
    await signIn(page);
    await addAuthors(
      page,
      Array.from({ length: 24 }, (_, index) => `Kept in view ${String(index + 1).padStart(2, '0')}`),
    );
    await page.goto('/resources/authors?q=kept&sort=title&order=asc');
    await waitForTitles(
      page,
      Array.from({ length: 24 }, (_, index) => `Kept in view ${String(index + 1).padStart(2, '0')}`),
    );
    const rowBox = page.locator('main tbody tr').nth(19).locator('input[type="checkbox"]');
    await rowBox.scrollIntoViewIfNeeded();
    await rowBox.check();
    await page.locator('section.bulk-actions').waitFor();
    const where = await page.evaluate(() => {
      const bar = document.querySelector('section.bulk-actions')!.getBoundingClientRect();
      const ticked = document.querySelectorAll('main tbody tr')[19]!.querySelector('input')!.getBoundingClientRect();
      return { scrolled: window.scrollY, bar: { top: bar.top, bottom: bar.bottom }, ticked: ticked.top };
    });
    // Scrolled down to the row, the bar is at the top of the window (it was a screen or two above), clear of the row.
    expect(where.scrolled).toBeGreaterThan(0);
    expect(where.bar.top).toBeGreaterThanOrEqual(0);
    expect(where.bar.bottom).toBeLessThan(viewport.height / 2);
    expect(where.ticked).toBeGreaterThanOrEqual(where.bar.bottom);
    expect(await page.getByRole('button', { name: 'Delete selected' }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('sorts the results of a word search by a column, both ways, the search kept', async () => {
    const { page } = await suite.newPage({ viewport });
    await signIn(page);
    const matches = (
      await fetchInPage<RecordListPayload>(page, '/api/resources/articles/records?search=the&sort=title&limit=100')
    ).body.records.map((record) => record.title);
    expect(matches.length).toBeGreaterThan(1);
    await page.goto('/resources/articles?search=the');
    await waitForSettledPage(page);
    await page.getByRole('button', { name: 'Title', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'title');
    expect(new URL(page.url()).searchParams.get('search')).toBe('the');
    await waitForTitles(page, matches);
    expect(await page.locator('th[data-column="title"]').getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: 'Title', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('order') === 'desc');
    await waitForTitles(page, [...matches].reverse());
    expect(await axeViolations(page)).toEqual([]);
  });

  it('lists the results of a word search best matches first, offered only with words, and by a column', async () => {
    const { page } = await suite.newPage({ viewport });
    await signIn(page);
    await addRecords(page, 'articles', [
      { title: 'Mood lighting', label: 'lamp' },
      { title: 'Lamp repairs', label: 'L' },
      { title: 'Lampshades', label: 'L' },
      { title: 'Desk', label: 'L', body: 'Lamps everywhere.' },
    ]);
    const best = ['Lamp repairs', 'Lampshades', 'Mood lighting', 'Desk'];
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    expect(await page.getByRole('button', { name: 'Best matches first' }).count()).toBe(0);

    await page.goto('/resources/articles?search=lamp');
    await waitForTitles(page, best);
    const relevance = page.getByRole('button', { name: 'Best matches first' });
    expect(await relevance.getAttribute('aria-pressed')).toBe('true');
    await page
      .locator('.list-status')
      .getByText(/best matches first\.$/)
      .waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Title', exact: true }).click();
    await waitForTitles(page, ['Desk', 'Lamp repairs', 'Lampshades', 'Mood lighting']);
    expect(await relevance.getAttribute('aria-pressed')).toBe('false');
    await relevance.click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'relevance');
    await waitForTitles(page, best);
    expect(await page.locator('th[aria-sort]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // Relevance needs words: the API says so; a prefix search sorted by title still answers (a fixed point).
    const refused = await fetchInPage<{ error: { message: string } }>(
      page,
      '/api/resources/articles/records?sort=relevance',
    );
    expect([refused.status, refused.body.error.message]).toEqual([400, expect.stringMatching(/give search too/)]);
    const prefix = await fetchInPage<RecordListPayload>(page, '/api/resources/articles/records?q=lamp&sort=title');
    expect(prefix.body.records.map((record) => record.title)).toEqual(['Lamp repairs', 'Lampshades']);
  });

  it('acts on every match of a search across pages: set a field and undo, delete and undo, the count said', async () => {
    const { page } = await suite.newPage({ viewport });
    await signIn(page);
    // 30 matches: two pages of 25.
    await addAuthors(
      page,
      Array.from({ length: 30 }, (_, index) => `Crate ${String(index).padStart(2, '0')}`),
    );
    await page.goto('/resources/authors?search=crate');
    await waitForSettledPage(page);
    const selectEvery = async () => {
      await page.getByRole('checkbox', { name: 'Select all 25 on this page' }).check();
      await page.getByRole('button', { name: 'Select all 30 authors this list matches' }).click();
      await page.getByText('All 30 authors this list matches are selected').waitFor();
    };
    await selectEvery();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('combobox', { name: 'Field to set' }).selectOption({ label: 'Group' });
    await page.getByRole('combobox', { name: 'New value' }).selectOption('guest');
    await page.getByRole('button', { name: 'Set on selected' }).click();
    const asked = page.getByRole('dialog', { name: 'Set Group to guest on all 30 authors this list matches?' });
    await asked.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await asked.getByRole('button', { name: 'Set', exact: true }).click();
    await page.getByRole('status').getByText('Changed 30 of 30 authors.').waitFor();
    // The five on the second page, never loaded here, were changed too.
    expect(await authorsCounted(page, 'search=crate&filter.group=guest')).toBe(30);
    expect((await focusedElement(page)).text).toBe('Undo: set Group back');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Set Group back on 30 of 30 authors.').waitFor();
    expect(await authorsCounted(page, 'search=crate&filter.group=staff')).toBe(30);

    await selectEvery();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const deleting = page.getByRole('dialog', { name: 'Delete all 30 authors this list matches?' });
    await deleting.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('status').getByText('Deleted 30 of 30 authors.').waitFor();
    expect(await authorsCounted(page, 'search=crate')).toBe(0);
    expect((await focusedElement(page)).text).toBe('Undo delete');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Restored 30 of 30 authors.').waitFor();
    expect(await authorsCounted(page, 'search=crate')).toBe(30);
    // Undo gone, the focus is on the page's heading (with its ring), not on the status it would have said twice.
    await waitUntil(
      async () => (await focusedElement(page)).tag === 'h1',
      SLOT_TIMEOUT_MS,
      'the focus on the heading after the undo',
    );
    expect((await focusedElement(page)).text).toBe('Authors');
  });

  it('remembers the rows per page and the columns chosen, for this user', async () => {
    const { page } = await suite.newPage({ viewport });
    await signIn(page);
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    await page.locator('summary', { hasText: 'Columns and rows' }).click();
    const sized = page.waitForRequest((request) => new URL(request.url()).searchParams.get('limit') === '10');
    await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('10');
    await sized;
    await page.getByRole('checkbox', { name: 'Label', exact: true }).uncheck();
    expect(await page.locator('main thead th[data-column="label"]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    const again = page.waitForRequest((request) => new URL(request.url()).searchParams.get('limit') === '10');
    await page.reload();
    await again;
    await waitForSettledPage(page);
    expect(await page.locator('main thead th[data-column="label"]').count()).toBe(0);
    expect(await page.locator('main thead th[data-column="group"]').count()).toBe(1);
  });

  it('asks before setting a field on the selected rows, then undoes it, the focus on Undo', async () => {
    const { page } = await suite.newPage({ viewport });
    await signIn(page);
    await addAuthors(page, ['Tools one', 'Tools two']);
    await page.goto('/resources/authors?search=tools');
    // Best matches first: both have the word in their name, the newer first.
    await waitForTitles(page, ['Tools two', 'Tools one']);
    await page.getByRole('checkbox', { name: 'Select all 2 on this page' }).check();
    await page.getByText('2 selected').waitFor();
    await page.getByRole('combobox', { name: 'Field to set' }).selectOption({ label: 'Group' });
    await page.getByRole('combobox', { name: 'New value' }).selectOption('guest');
    await page.getByRole('button', { name: 'Set on selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set Group to guest on 2 authors?' });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Set', exact: true }).click();
    await page.getByRole('status').getByText('Changed 2 of 2 authors.').waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('main tbody tr td:nth-child(3)')].every((cell) => cell.textContent === 'guest'),
    );
    expect((await focusedElement(page)).text).toBe('Undo: set Group back');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Set Group back on 2 of 2 authors.').waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('main tbody tr td:nth-child(3)')].every((cell) => cell.textContent === 'staff'),
    );
    expect(await axeViolations(page)).toEqual([]);

    // After a bulk delete the focus is on its Undo, not on a button gone or disabled.
    await page.getByRole('checkbox', { name: 'Select Tools one' }).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog', { name: 'Delete 1 author?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').getByText('Deleted 1 of 1 author.').waitFor();
    expect((await focusedElement(page)).text).toBe('Undo delete');
  });

  it('downloads the query shown as CSV, every page of it, from a link on the list', async () => {
    const { page } = await suite.newPage({ viewport, acceptDownloads: true });
    await signIn(page);
    const all = (await fetchInPage<RecordListPayload>(page, '/api/resources/articles/records?limit=100')).body;
    await page.goto('/resources/articles?filter.group=news');
    await waitForSettledPage(page);
    const link = page.getByRole('link', { name: 'Download CSV' });
    expect(new URL(await link.evaluate((a) => (a as HTMLAnchorElement).href)).search).toBe(
      '?filter.group=news&format=csv&bom=1',
    );
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('articles.csv');
    const file = await readFile((await download.path()) ?? '');
    // A byte-order mark first, for the spreadsheet a person opens it in.
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = file
      .subarray(3)
      .toString('utf8')
      .split('\r\n')
      .filter((line) => line !== '');
    expect(lines[0]).toBe('title,label,group,published,authorId');
    expect(lines.length - 1).toBe(all.records.filter((record) => record.group === 'news').length);
  });

  it("gives a viewer on an edit address the record's read view, saying why, within the first screen", async () => {
    const password = 'a viewer password of some length';
    await runCommand(suite.server, ['user:add', '--', 'vera', '--tenant', 'acme', '--role', 'viewer'], `${password}\n`);
    const { page } = await suite.newPage({ viewport });
    await signIn(page, { username: 'vera', password });
    const article = await firstRecord(page, 'articles');
    await page.goto(`/resources/articles/${article.id}/edit`);
    const notice = page.locator('[data-edit-refused]');
    await notice.waitFor({ timeout: SLOT_TIMEOUT_MS });
    await waitForSettledPage(page);
    expect(await notice.innerText()).toContain(VIEWER_CANNOT_CHANGE_RECORDS);
    expect((await notice.boundingBox())?.y ?? Infinity).toBeLessThan(viewport.height);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(article.title);
    expect(await page.locator('form[data-resource-form]').count()).toBe(0);
    expect(await page.locator('main input:disabled, main textarea:disabled').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('every match of a list searched by the start of its sorted column', () => {
  it('reaches the records the list shows, not those whose first text column starts the same', async () => {
    const { page } = await suite.newPage({ viewport: WIDTHS[0].viewport });
    await signIn(page);
    // "wr" starts 30 names and 30 other authors' emails: which 30 the list shows depends on its sort.
    const numbers = Array.from({ length: 30 }, (_, index) => String(index).padStart(2, '0'));
    await addRecords(page, 'authors', [
      ...numbers.map((n) => ({ title: `Wrongly hit ${n}`, label: 'L', group: 'staff', email: `ok${n}@example.com` })),
      ...numbers.map((n) => ({ title: `Meant ${n}`, label: 'L', group: 'staff', email: `wr${n}@example.com` })),
    ]);
    await page.goto('/resources/authors?sort=email&q=wr');
    await page.getByText(/^Showing 25 of 30 authors whose email starts with “wr”/).waitFor();
    await page.getByRole('checkbox', { name: 'Select all 25 on this page' }).check();
    await page.getByRole('button', { name: 'Select all 30 authors this list matches' }).click();
    await page.getByRole('combobox', { name: 'Field to set' }).selectOption({ label: 'Group' });
    await page.getByRole('combobox', { name: 'New value' }).selectOption('guest');
    await page.getByRole('button', { name: 'Set on selected' }).click();
    const asked = page.getByRole('dialog', { name: 'Set Group to guest on all 30 authors this list matches?' });
    await asked.getByRole('button', { name: 'Set', exact: true }).click();
    await page.getByRole('status').getByText('Changed 30 of 30 authors.').waitFor();
    expect(await authorsCounted(page, 'sort=email&q=wr&filter.group=guest')).toBe(30);
    expect(await authorsCounted(page, 'q=wr&filter.group=guest')).toBe(0);
  });
});
