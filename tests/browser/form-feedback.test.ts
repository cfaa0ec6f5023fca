import type { Page } from 'playwright-core';
import type { RecordListPayload } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { fetchInPage } from '../../testing/system/slot-page';
import { signIn } from '../../testing/system/sign-in';
import { firstRecord, focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(60_000);

const suite = useBrowserSuite();

const FORM = 'form[data-resource-form="articles"]';

/** The text of the elements an element's aria-describedby points at: what a screen reader reads with it. */
function description(page: Page, selector: string): Promise<string> {
  return page.locator(selector).evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? `(missing #${id})`)
      .join(' '),
  );
}

describe('the record form', () => {
  it('names every refused field, moves focus to the first, and keeps focus on Save after saving', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    const article = await firstRecord(page, 'articles');
    await page.goto(`/resources/articles/${article.id}/edit`);
    await waitForSettledPage(page);

    await page.locator(`${FORM} [name="title"]`).fill('');
    await page.locator(`${FORM} [name="label"]`).fill('');
    await page.locator(`${FORM} button[type="submit"]`).focus();
    await page.keyboard.press('Enter');

    const summary = page.locator(FORM).getByRole('alert');
    await summary.getByText('2 fields need attention:').waitFor();
    const items = await summary.getByRole('link').allInnerTexts();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/^Title: .+/);
    expect(items[1]).toMatch(/^Label: .+/);
    // Focus on the first field to fix, which says what is wrong with it.
    expect((await focusedElement(page)).name).toBe('title');
    expect(await page.locator(`${FORM} [name="title"]`).getAttribute('aria-invalid')).toBe('true');
    expect(await description(page, `${FORM} [name="title"]`)).toBe(items[0]?.replace(/^Title: /, ''));

    // The summary's links lead to their field.
    await summary.getByRole('link', { name: /^Label:/ }).click();
    expect((await focusedElement(page)).name).toBe('label');
    expect(new URL(page.url()).hash).toBe('');

    // A fixed field drops out of the summary.
    await page.keyboard.type('A label again');
    expect(await summary.getByRole('link').allInnerTexts()).toEqual([items[0]]);
    await page.locator(`${FORM} [name="title"]`).fill('A title again');

    // Saving from the keyboard: focus stays on Save, so the next Tab goes on from there.
    await page.locator(`${FORM} button[type="submit"]`).focus();
    await page.keyboard.press('Enter');
    await page.locator(`${FORM} [role="status"]`).getByText('Saved.').waitFor();
    expect(await focusedElement(page)).toEqual({ tag: 'button', text: 'Save', name: null });
  });

  it('creates a record once when the answer of its create was lost and Create is pressed again', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    const title = `Lost answer ${Date.now()}`;
    await page.goto('/resources/articles/new');
    await waitForSettledPage(page);
    await page.locator(`${FORM} [name="title"]`).fill(title);
    await page.locator(`${FORM} [name="label"]`).fill('Lost');

    // The first create reaches the server, which makes the record; its answer never reaches the page.
    const keys: (string | undefined)[] = [];
    await page.route('**/api/resources/articles/records', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      keys.push(route.request().headers()['idempotency-key']);
      if (keys.length > 1) return route.fallback();
      expect((await route.fetch()).status()).toBe(201);
      return route.abort('connectionreset');
    });
    await page.locator(`${FORM} button[type="submit"]`).focus();
    await page.keyboard.press('Enter');
    await page.getByText(/the record may or may not be created.+press Create again/).waitFor();

    // Pressed again: the same create, answered with the record the first made; the page moves on to it.
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => /^\/resources\/articles\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    // The record's page says it was created, the focus on its heading; once: a reload does not say it again.
    await page.getByRole('status').getByText('Created.', { exact: true }).waitFor();
    expect(await focusedElement(page)).toMatchObject({ tag: 'h1', text: title });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await waitForSettledPage(page);
    expect(await page.getByText('Created.', { exact: true }).count()).toBe(0);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    const found = await fetchInPage<RecordListPayload>(
      page,
      `/api/resources/articles/records?search=${encodeURIComponent(title)}`,
    );
    expect(found.body.records.map((record) => record.title)).toEqual([title]);
    expect(new URL(page.url()).pathname).toBe(`/resources/articles/${found.body.records[0]!.id}`);
  });
});
