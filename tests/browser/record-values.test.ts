/**
 * Numbers and days as staff read them in a record list and on a record's page: a number column's figures at the
 * right in tabular figures (its heading too), a date field's day in words in the reader's form of the page's language
 * (`15 Jan 2024` for en-GB, `Jan 15, 2024` for en-US) inside a `<time>` that keeps the stored day, on the same day in
 * every time zone; the CSV, the sort and the filters keep the stored days.
 */
import type { Page } from 'playwright-core';
import type { RecordListPayload } from '../../shared';
import { startFixtureServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';
import { waitForList, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(90_000);

const RESOURCE = 'invoices';

const suite = useBrowserSuite({
  startServer: () =>
    startFixtureServer({
      resources: [
        {
          name: RESOURCE,
          label: 'Invoices',
          fields: [
            { type: 'field', name: 'title', input: 'text', label: 'Title', required: true },
            { type: 'field', name: 'label', input: 'text', label: 'Label', required: true },
            { type: 'field', name: 'amount', input: 'number', label: 'Amount' },
            { type: 'field', name: 'due', input: 'date', label: 'Due on' },
          ],
          listColumns: ['title', 'amount', 'due'],
          // New Year's Day: a day read as an instant is 31 Dec west of Greenwich.
          records: {
            acme: [
              { title: 'Rent', label: 'rent', amount: 1234.5, due: '2024-01-01' },
              { title: 'Stamps', label: 'stamps', amount: 9, due: '2024-01-15' },
              { title: 'Paper', label: 'paper', amount: 120, due: '2024-12-31' },
            ],
          },
        },
      ],
    }),
  prestart: true,
});

/** Each column of the list shown: its heading's and its cells' alignment and figures, and its cells' text. */
function columnsOf(page: Page) {
  return page.evaluate(() => {
    const headings = [...document.querySelectorAll<HTMLElement>('main table thead th[data-column]')];
    const rows = [...document.querySelectorAll('main table tbody tr')];
    const look = (element: Element) => {
      const style = getComputedStyle(element);
      return `${style.textAlign} ${style.fontVariantNumeric}`;
    };
    return Object.fromEntries(
      headings.map((heading, index) => {
        const cells = rows.map((row) => row.children[index]!);
        return [
          heading.dataset.column!,
          {
            heading: look(heading),
            cells: [...new Set(cells.map(look))],
            texts: cells.map((cell) => (cell.textContent ?? '').trim()),
          },
        ];
      }),
    );
  });
}

/** The days of the list's date column as `<time>` elements give them: the stored day, and its words. */
function daysOf(page: Page): Promise<Array<[string | null, string]>> {
  return page
    .locator('main tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [
        row.querySelector('time')?.getAttribute('datetime') ?? null,
        (row.querySelector('time')?.textContent ?? '').trim(),
      ]),
    );
}

async function openList(page: Page, search = ''): Promise<void> {
  await page.goto(`/resources/${RESOURCE}${search}`);
  await waitForSettledPage(page);
}

it('aligns a number column at the right in tabular figures, its heading too, and the other columns at the left', async () => {
  const { page } = await suite.newPage({ locale: 'en-GB' });
  await signIn(page);
  await openList(page);

  expect(await columnsOf(page)).toEqual({
    title: { heading: 'left normal', cells: ['left normal'], texts: ['Rent', 'Stamps', 'Paper'] },
    amount: { heading: 'right tabular-nums', cells: ['right tabular-nums'], texts: ['1234.5', '9', '120'] },
    due: { heading: 'left normal', cells: ['left normal'], texts: ['1 Jan 2024', '15 Jan 2024', '31 Dec 2024'] },
  });
  // At the right, as seen: each amount ends where its cell's text ends, the heading's sort button too.
  const rightGaps = await page.evaluate(() =>
    [
      ...document.querySelectorAll('main table [data-column="amount"] button, main table tbody td:nth-child(2) bdi'),
    ].map((element) => {
      const cell = element.closest('td, th')!;
      return Math.round(
        cell.getBoundingClientRect().right -
          parseFloat(getComputedStyle(cell).paddingRight) -
          element.getBoundingClientRect().right,
      );
    }),
  );
  expect(rightGaps).toEqual([0, 0, 0, 0]);
});

it('shows a day in words in a <time> of the stored day, in the list and on the record page, in any time zone', async () => {
  // West of Greenwich: 2024-01-01 read as an instant is 31 Dec 2023 there.
  const { page } = await suite.newPage({ locale: 'en-GB', timezoneId: 'America/Los_Angeles' });
  await signIn(page);
  await openList(page);
  expect(await daysOf(page)).toEqual([
    ['2024-01-01', '1 Jan 2024'],
    ['2024-01-15', '15 Jan 2024'],
    ['2024-12-31', '31 Dec 2024'],
  ]);

  // The sort is the stored days' order still, both ways.
  await page.getByRole('button', { name: 'Due on' }).click();
  await waitForList(page, (url) => url.searchParams.get('sort') === 'due');
  expect((await daysOf(page)).map(([day]) => day)).toEqual(['2024-01-01', '2024-01-15', '2024-12-31']);
  await page.getByRole('button', { name: 'Due on' }).click();
  await waitForList(page, (url) => url.searchParams.get('order') === 'desc');
  expect((await daysOf(page)).map(([day]) => day)).toEqual(['2024-12-31', '2024-01-15', '2024-01-01']);

  // The CSV is for machines and spreadsheets: the stored day, as it was.
  const csv = await page.evaluate(async () => {
    const link = document.querySelector<HTMLAnchorElement>('a[data-csv-export]')!;
    return (await fetch(link.href, { credentials: 'same-origin' })).text();
  });
  expect(csv).toContain('2024-01-01');
  expect(csv).not.toContain('Jan');

  // The record's page: its field, as the list writes it.
  await page.getByRole('link', { name: 'Rent', exact: true }).click();
  const due = page.locator('[data-field="due"] dd time');
  await due.waitFor();
  expect([await due.getAttribute('datetime'), await due.textContent()]).toEqual(['2024-01-01', '1 Jan 2024']);
});

it('writes days in the reader’s form of English, on the same day far east of Greenwich', async () => {
  // UTC+14: the day begins there 14 hours before it does in UTC.
  const { page } = await suite.newPage({ locale: 'en-US', timezoneId: 'Pacific/Kiritimati' });
  await signIn(page);
  await openList(page);
  expect(await daysOf(page)).toEqual([
    ['2024-01-01', 'Jan 1, 2024'],
    ['2024-01-15', 'Jan 15, 2024'],
    ['2024-12-31', 'Dec 31, 2024'],
  ]);
  const [rent] = (await fetchInPage<RecordListPayload>(page, `/api/resources/${RESOURCE}/records`)).body.records;
  await page.goto(`/resources/${RESOURCE}/${rent!.id}`);
  await expect(page.locator('[data-field="due"] dd time').textContent()).resolves.toBe('Jan 1, 2024');
});

it('says the days of an applied date filter as the list writes them', async () => {
  const { page } = await suite.newPage({ locale: 'en-GB', timezoneId: 'America/Los_Angeles' });
  await signIn(page);
  await page.goto('/resources/articles?filter.published=2024-01-01..2024-12-31');
  await waitForSettledPage(page);
  await expect(page.locator('.list-filters-disclosure__applied').textContent()).resolves.toBe(
    ': Published on: 1 Jan 2024 to 31 Dec 2024',
  );
  // The articles of 2024, each day in words beside its stored one.
  const published = await page
    .locator('main tbody td time')
    .evaluateAll((times) => times.map((time) => [time.getAttribute('datetime'), time.textContent]));
  expect(published.length).toBeGreaterThan(0);
  for (const [day, words] of published) {
    expect(day).toMatch(/^2024-\d\d-\d\d$/);
    expect(words).toMatch(/^\d{1,2} [A-Z][a-z]{2,3} 2024$/);
  }
});
