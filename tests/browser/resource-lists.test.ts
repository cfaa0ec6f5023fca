import type { Page } from 'playwright-core';
import type { RecordListPayload, ResourcePayload } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';
import { waitForSettledPage } from '../../testing/system/staff-pages';

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
    ['articles', ['Title', 'Label', 'Group'], ['title', 'label', 'group']],
  ])('show the columns %s chooses in its definition', async (resource, headings, columns) => {
    const { page } = await suite.newPage();
    await signIn(page);
    const definition = (await fetchInPage<ResourcePayload>(page, `/api/resources/${resource}`)).body.resource;
    expect(definition.listColumns).toEqual(columns);
    const records = (await fetchInPage<RecordListPayload>(page, `/api/resources/${resource}/records`)).body.records;

    await page.goto(`/resources/${resource}`);
    await waitForSettledPage(page);
    const table = await shownTable(page);
    expect(table.headings).toEqual(headings);
    expect(table.rows).toEqual(records.map((record) => columns.map((column) => String(record[column] ?? '—'))));
    // The first column opens the record.
    const first = records[0];
    await page.locator('main tbody').getByRole('link', { name: first?.title, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/resources/${resource}/${first?.id}`);
  });
});
