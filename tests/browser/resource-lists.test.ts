import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { RECORD_LIST_LIMIT, type RecordListPayload, type ResourcePayload, type ResourceRecord } from '../../shared';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';
import { focusedElement, scrollsSideways, waitForList, waitForSettledPage } from '../../testing/system/staff-pages';
import { dayInWords } from '../../shared/date-time-in-words';

/** The demo's authors in acme, in the order they were added. */
const DEMO_AUTHORS = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'];

jest.setTimeout(60_000);

const suite = useBrowserSuite();

/** The list as shown: the column headings, then each row's cells (the actions column left out). */
async function shownTable(page: Page): Promise<{ headings: string[]; rows: string[][] }> {
  return page.locator('main table').evaluate((table) => {
    const cells = (row: Element) => [...row.children].slice(0, -1).map((cell) => (cell.textContent ?? '').trim());
    return {
      headings: cells(table.querySelector('thead tr') as Element),
      rows: [...table.querySelectorAll('tbody tr')].map(cells),
    };
  });
}

describe('resource lists', () => {
  it.each([
    ['authors', ['Name', 'Email', 'Group'], ['title', 'email', 'group']],
    [
      'articles',
      ['Title', 'Label', 'Group', 'Published on', 'Author'],
      ['title', 'label', 'group', 'published', 'authorId'],
    ],
  ])('show the columns %s chooses in its definition', async (resource, headings, columns) => {
    const { page } = await suite.newPage({ locale: 'en-GB' });
    await signIn(page);
    const definition = (await fetchInPage<ResourcePayload>(page, `/api/resources/${resource}`)).body.resource;
    expect(definition.listColumns).toEqual(columns);
    const { records, related } = (await fetchInPage<RecordListPayload>(page, `/api/resources/${resource}/records`))
      .body;
    // A relation column names the related record (the author), not its id; a date column writes its day in words.
    const cell = (record: ResourceRecord, column: string) =>
      related?.[column]
        ? (related[column].find((each) => each.id === record[column])?.title ?? '—')
        : column === 'published' && record[column]
          ? dayInWords(String(record[column]), ['en-GB'])
          : String(record[column] ?? '—');

    await page.goto(`/resources/${resource}`);
    await waitForSettledPage(page);
    const table = await shownTable(page);
    expect(table.headings).toEqual(headings);
    expect(table.rows).toEqual(records.map((record) => columns.map((column) => cell(record, column))));
    if (resource === 'articles') expect(table.rows.flat()).toContain('Ada Lovelace');
    // The first column opens the record.
    const first = records[0];
    await page.locator('main tbody').getByRole('link', { name: first?.title, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/resources/${resource}/${first?.id}`);
  });

  it('breaks a value without spaces (a URL, a hash) inside its cell: a desktop list does not widen past its frame', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    const title = `Long${'x'.repeat(196)}`;
    const label = `https://example.com/${'a'.repeat(80)}`;
    const created = await fetchInPage(page, '/api/resources/articles/records', {
      method: 'POST',
      body: { title, label },
    });
    expect(created.status).toBe(201);
    await page.goto('/resources/articles?order=desc');
    await waitForSettledPage(page);
    expect(await page.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth <= wrap.clientWidth)).toBe(true);
    // Whole, over several lines, and the row's actions on screen beside it.
    const row = page.locator('main tbody tr').filter({ hasText: title });
    expect(await row.locator('td').first().textContent()).toBe(title);
    const frame = await page.locator('.table-wrap').boundingBox();
    const edit = await row.getByRole('link', { name: 'Edit' }).boundingBox();
    if (!frame || !edit) throw new Error('The list or its new row is not shown.');
    expect(edit.x + edit.width).toBeLessThanOrEqual(frame.x + frame.width);
  });
});

/** Adds authors straight into the server's database file, as many as it takes to fill more than one page. */
function seedAuthors(databasePath: string, titles: readonly string[]): void {
  const db = new Database(databasePath);
  try {
    const insert = db.prepare(
      "INSERT INTO records (tenant_id, resource, data, created_at, updated_at) VALUES ('acme', 'authors', ?, 0, 0)",
    );
    db.transaction(() => {
      for (const title of titles) insert.run(JSON.stringify({ title, label: 'Seeded', group: 'guest' }));
    })();
  } finally {
    db.close();
  }
}

/** The first column of the rows shown. */
async function shownTitles(page: Page): Promise<string[]> {
  return page.locator('main tbody tr td:first-child').allTextContents();
}

describe('a long list', () => {
  const TITLES = Array.from(
    { length: 40 },
    (_, index) => `${index % 2 ? 'seed' : 'Seed'} ${String(index).padStart(2, '0')}`,
  );

  it('is searched, sorted and paged by the keyboard, with the state in the address for reload and Back', async () => {
    seedAuthors(suite.server.databasePath, TITLES);
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/authors');
    await waitForSettledPage(page);
    const all = [...DEMO_AUTHORS, ...TITLES];
    expect(await shownTitles(page)).toEqual(all.slice(0, RECORD_LIST_LIMIT.default));
    await expect(page.getByRole('status').filter({ hasText: 'Showing' }).textContent()).resolves.toBe(
      `Showing 25 of ${all.length} authors, oldest first.`,
    );

    // Sort by name: the heading is a button, its column says how it is sorted, the focus stays on it.
    const nameButton = page.getByRole('button', { name: 'Name', exact: true });
    await nameButton.focus();
    await page.keyboard.press('Enter');
    await waitForList(page, (url) => url.searchParams.get('sort') === 'title');
    const byName = [...all].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    expect(await shownTitles(page)).toEqual(byName.slice(0, 25));
    await expect(page.locator('th[data-column="title"]').getAttribute('aria-sort')).resolves.toBe('ascending');
    await expect(page.locator('th[data-column="email"]').getAttribute('aria-sort')).resolves.toBeNull();
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Name' });
    await page.keyboard.press('Enter');
    await waitForList(page, (url) => url.searchParams.get('order') === 'desc');
    expect(await shownTitles(page)).toEqual([...byName].reverse().slice(0, 25));
    await expect(page.locator('th[data-column="title"]').getAttribute('aria-sort')).resolves.toBe('descending');

    // The next page, by the keyboard, from the pager above the rows: a few Tab stops from the search box (what it
    // matches, its button, the filters), not two per row. The previous button says there is none before.
    const pager = page.getByRole('navigation', { name: 'Pages of authors', exact: true });
    await expect(pager.getByRole('button', { name: 'Previous page' }).getAttribute('aria-disabled')).resolves.toBe(
      'true',
    );
    await page.getByRole('searchbox', { name: 'Search authors' }).focus();
    let tabs = 0;
    while ((await focusedElement(page)).text !== 'Next page →' && tabs < 10) {
      await page.keyboard.press('Tab');
      tabs += 1;
    }
    expect(tabs).toBeLessThan(8);
    await page.keyboard.press('Enter');
    await waitForList(page, (url) => url.searchParams.has('after'));
    const secondPage = [...byName].reverse().slice(25, 50);
    expect(await shownTitles(page)).toEqual(secondPage);
    // It says which of them it shows.
    await expect(page.getByRole('status').filter({ hasText: 'Showing' }).textContent()).resolves.toBe(
      `Showing 26 to ${25 + secondPage.length} of ${all.length} authors, by name, descending.`,
    );
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Next page →' });
    await expect(pager.getByRole('button', { name: 'Next page' }).getAttribute('aria-disabled')).resolves.toBe('true');
    // The pager below the rows does the same.
    const pagerBelow = page.getByRole('navigation', { name: 'Pages of authors, after the list' });
    await expect(pagerBelow.getByRole('button', { name: 'Next page' }).getAttribute('aria-disabled')).resolves.toBe(
      'true',
    );

    // Reload keeps the page; Back returns to the first one.
    await page.reload();
    await waitForSettledPage(page);
    expect(await shownTitles(page)).toEqual(secondPage);
    await page
      .getByRole('status')
      .filter({ hasText: /^Showing 26 to / })
      .waitFor();
    await page.goBack();
    await waitForList(page, (url) => !url.searchParams.has('after'));
    expect(await shownTitles(page)).toEqual([...byName].reverse().slice(0, 25));

    // Search: the start of the sorted column chosen beside the box, typed and sent from the box, which keeps the
    // focus; the address holds it.
    const box = page.getByRole('searchbox', { name: 'Search authors' });
    await page.getByRole('combobox', { name: 'Match' }).selectOption({ label: 'Name starts with' });
    await box.focus();
    await page.keyboard.type('SEED 1');
    await page.keyboard.press('Enter');
    await waitForList(page, (url) => url.searchParams.get('q') === 'SEED 1');
    const matching = byName.filter((title) => title.toLowerCase().startsWith('seed 1')).reverse();
    expect(await shownTitles(page)).toEqual(matching);
    expect(await focusedElement(page)).toMatchObject({ tag: 'input', name: 'q' });
    await expect(page.getByRole('status').filter({ hasText: 'Showing' }).textContent()).resolves.toBe(
      `Showing ${matching.length} of ${matching.length} authors whose name starts with “SEED 1”, by name, descending.`,
    );
    await page.reload();
    await waitForSettledPage(page);
    await expect(box.inputValue()).resolves.toBe('SEED 1');
    await expect(page.getByRole('combobox', { name: 'Match' }).inputValue()).resolves.toBe('q');
    expect(await shownTitles(page)).toEqual(matching);

    // A search nothing matches says so.
    await box.fill('nobody');
    await page.keyboard.press('Enter');
    await waitForList(page, (url) => url.searchParams.get('q') === 'nobody');
    await expect(page.getByRole('status').filter({ hasText: 'nobody' }).textContent()).resolves.toBe(
      'No authors whose name starts with “nobody”.',
    );
    expect(await axeViolations(page)).toEqual([]);
  });

  it("leads back from a record's breadcrumb to the list as it was left: its page and its order", async () => {
    seedAuthors(suite.server.databasePath, TITLES);
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/authors?sort=title&order=desc');
    await waitForSettledPage(page);
    await page
      .getByRole('navigation', { name: 'Pages of authors', exact: true })
      .getByRole('button', { name: 'Next page' })
      .click();
    await waitForList(page, (url) => url.searchParams.has('after'));
    const listAddress = new URL(page.url()).search;
    const secondPage = await shownTitles(page);

    await page
      .locator('main tbody')
      .getByRole('link', { name: secondPage[3] ?? '', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: secondPage[3] ?? '' }).waitFor();
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: `Edit ${secondPage[3] ?? ''}` }).waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Authors' }).click();
    await waitForList(page, (url) => url.pathname === '/resources/authors' && url.search === listAddress);
    expect(await shownTitles(page)).toEqual(secondPage);

    // Signed out and in again, the list starts afresh: a search is not left behind in the tab for the next person.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page);
    await page.goto('/resources/authors/1');
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Authors' }).click();
    await waitForList(page, (url) => url.pathname === '/resources/authors' && url.search === '');
  });

  it('says what is wrong with an address it cannot show, and offers its first page', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/authors?sort=title&after=not-a-cursor');
    await page
      .getByRole('alert')
      .getByText('The after cursor is not valid: start again from the first page.')
      .waitFor();
    await page.getByRole('button', { name: "Show the list's first page" }).click();
    await waitForList(page, (url) => url.pathname === '/resources/authors' && url.search === '');
    expect(await shownTitles(page)).toEqual(DEMO_AUTHORS);
    // The button is gone with the error: focus went on to the list's heading, not to the page's body.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await focusedElement(page)).toMatchObject({ tag: 'h1', text: 'Authors' });
  });

  it('fits a phone (390 px) with the search, sorted headings and pager, with no axe violation', async () => {
    seedAuthors(suite.server.databasePath, TITLES);
    const { page } = await suite.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(page);
    await page.goto('/resources/authors?sort=email&order=desc');
    await waitForSettledPage(page);
    await expect(page.locator('th[data-column="email"]').getAttribute('aria-sort')).resolves.toBe('descending');
    await expect(page.getByRole('navigation', { name: 'Pages of authors', exact: true }).isVisible()).resolves.toBe(
      true,
    );
    // Each sort button is a target of at least 24 by 24 px (WCAG 2.2, 2.5.8), not the text's 18 px.
    for (const box of await Promise.all(
      (await page.locator('.table__sort').all()).map((button) => button.boundingBox()),
    )) {
      expect(box?.height).toBeGreaterThanOrEqual(24);
      expect(box?.width).toBeGreaterThanOrEqual(24);
    }
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);

    // A list wider than the phone (articles: five columns) keeps each row's actions on screen, and pressable.
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    const row = page.locator('table tbody tr').first();
    // Down to the row, the page alone: scrolling the action into view would scroll the list's frame sideways too.
    await row.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 200));
    const frame = await page.locator('.table-wrap').boundingBox();
    expect(await page.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth > wrap.clientWidth)).toBe(true);
    for (const action of [row.getByRole('link', { name: 'Edit' }), row.getByRole('button', { name: /^Delete/ })]) {
      const box = await action.boundingBox();
      if (!box || !frame) throw new Error('The first row or the list is not shown.');
      expect(box.x + box.width).toBeLessThanOrEqual(Math.min(frame.x + frame.width, 390));
      const pressed = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest('a, button')?.textContent ?? null,
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      );
      expect(pressed).toMatch(/^(Edit|Delete)/);
    }
    expect(await scrollsSideways(page)).toBe(false);
  });
});
