import type { Page } from 'playwright-core';
import type { RecordPayload } from '../../shared';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * A delete undone after its Undo is gone: the list's notice goes with the page, and Recently deleted (linked from
 * the list, and from the address of the deleted record) still brings the record back for the rest of the day.
 */
jest.setTimeout(90_000);

const suite = useBrowserSuite();

const TITLE = 'Harbour lights feature';

/** Whether the list shows a row whose first column is `title`. */
function listed(page: Page, title: string): Promise<boolean> {
  return page.evaluate(
    (wanted) =>
      [...document.querySelectorAll('main tbody tr td:first-child')].some((cell) => cell.textContent === wanted),
    title,
  );
}

describe('Recently deleted', () => {
  it('restores an article deleted from its page after leaving the list, and the list shows it again', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    const created = await page.request.post('/api/resources/articles/records', {
      data: { title: TITLE, label: 'Feature' },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(created.status()).toBe(201);
    const { id } = ((await created.json()) as RecordPayload).record;

    // Deleted from its own page: the list offers Undo, and says where else it can be restored from.
    await page.goto(`/resources/articles/${id}`);
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await page.getByRole('button', { name: `Delete ${TITLE}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete “${TITLE}”?` });
    await dialog.getByText('restore it from Recently deleted for a day').waitFor();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/resources/articles');
    const notice = page.locator('.deleted-notice');
    await notice.getByRole('status').getByText(`Deleted “${TITLE}”.`).waitFor();
    expect(await notice.getByRole('link', { name: 'Recently deleted' }).getAttribute('href')).toBe(
      '/resources/articles/deleted',
    );

    // Away to the dashboard and back: the notice is gone, and so is the article.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await waitForSettledPage(page);
    await page.goto('/resources/articles?order=desc');
    await waitForSettledPage(page);
    expect(await page.getByText(`Deleted “${TITLE}”.`).count()).toBe(0);
    expect(await listed(page, TITLE)).toBe(false);

    // Its address says what became of it, and where to get it back.
    await page.goto(`/resources/articles/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Record deleted' }).waitFor();
    await page.getByText(`The article “${TITLE}” was deleted. It can be restored until`).waitFor();
    expect(await page.getByRole('link', { name: 'Go to Recently deleted' }).getAttribute('href')).toBe(
      '/resources/articles/deleted',
    );

    // From the list (as it was left), Recently deleted; a reload of its address shows it again.
    await page.goto('/resources/articles?order=desc');
    await waitForSettledPage(page);
    await page.getByRole('link', { name: 'Recently deleted' }).click();
    await page.waitForURL((url) => url.pathname === '/resources/articles/deleted');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Recently deleted' }).waitFor();
    const row = page.locator('main tbody tr', { has: page.getByRole('cell', { name: TITLE, exact: true }) });
    await row.waitFor();
    expect(await row.locator('time').count()).toBe(2);
    await waitForSettledPage(page);
    expect(await axeViolations(page)).toEqual([]);

    await row.getByRole('button', { name: `Restore ${TITLE}` }).click();
    await page.getByRole('status').getByText(`Restored “${TITLE}”.`).waitFor();
    expect(await focusedElement(page)).toMatchObject({ tag: 'a', text: TITLE });
    await row.waitFor({ state: 'detached' });
    expect(await axeViolations(page)).toEqual([]);

    // Back to the list by the breadcrumb: the article is there again.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Articles' }).click();
    await page.waitForURL((url) => url.pathname === '/resources/articles' && url.search === '?order=desc');
    await page.waitForFunction(
      (title) =>
        [...document.querySelectorAll('main tbody tr td:first-child')].some((cell) => cell.textContent === title),
      TITLE,
    );
    expect((await page.request.get(`/api/resources/articles/records/${id}`)).status()).toBe(200);
  });
});
