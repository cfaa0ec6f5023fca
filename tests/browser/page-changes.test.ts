import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, DEMO_USERNAME } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { componentSelector, SLOT_TIMEOUT_MS } from '../../testing/system/slot-page';
import { firstRecord, focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(60_000);

const suite = useBrowserSuite();

/** After a page change: the document's title names the page, and focus is on the new page's heading. */
async function expectAnnounced(page: Page, title: string, heading: string) {
  await waitForSettledPage(page);
  await page.waitForFunction((expected) => document.title === expected, `${title} · Slots Admin`, {
    timeout: SLOT_TIMEOUT_MS,
  });
  expect(await focusedElement(page)).toEqual({ tag: 'h1', text: heading, name: null });
}

describe('page changes', () => {
  it('name the page in document.title and move focus to its heading, whatever led there', async () => {
    const { page } = await suite.newPage();

    // The first page of a visit keeps its own focus: the sign-in form's first field.
    await page.goto('/resources/articles');
    await page.waitForURL((url) => url.pathname === '/login');
    await waitForSettledPage(page);
    expect(await page.title()).toBe('Sign in · Slots Admin');
    expect((await focusedElement(page)).name).toBe('username');

    // Signing in leads back to the page asked for.
    await page.keyboard.type(DEMO_USERNAME);
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/resources/articles');
    await expectAnnounced(page, 'Articles', 'Articles');
    const article = await firstRecord(page, 'articles');

    // A record from the list, its Edit button, the breadcrumb back, the side navigation.
    await page.locator('main').getByRole('link', { name: article.title, exact: true }).click();
    await expectAnnounced(page, `${article.title} · Articles`, article.title);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expectAnnounced(page, `Edit ${article.title} · Articles`, `Edit ${article.title}`);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: article.title }).click();
    await expectAnnounced(page, `${article.title} · Articles`, article.title);
    await page.locator('nav.nav').getByRole('link', { name: 'Dashboard' }).click();
    await expectAnnounced(page, 'Dashboard', 'Dashboard');

    // A remote's plain link (the dashboard shortcuts), then back and forward in history.
    await page
      .locator(componentSelector('ShortcutLinks'))
      .getByRole('link', { name: /All authors/ })
      .click();
    await expectAnnounced(page, 'Authors', 'Authors');
    await page.goBack();
    await expectAnnounced(page, 'Dashboard', 'Dashboard');
    await page.goForward();
    await expectAnnounced(page, 'Authors', 'Authors');

    // A page that does not exist, and a record that does not.
    await page.evaluate(() => {
      history.pushState(null, '', '/resources/articles/1/edit/more');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expectAnnounced(page, 'Page not found', 'Page not found');
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await expectAnnounced(page, 'Dashboard', 'Dashboard');

    // From the heading, the next Tab reaches the page's own content (the first shortcut), not the footer.
    await page.keyboard.press('Tab');
    expect((await focusedElement(page)).text).toBe('All articles →');
  });

  it('move focus to the page heading when the focused control disappears, such as a dismissed banner', async () => {
    const { page } = await suite.newPage();
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(DEMO_USERNAME);
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await expectAnnounced(page, 'Dashboard', 'Dashboard');

    // The demo's header banner (a remote's component) can be dismissed; its button goes with it.
    const dismiss = page.getByRole('button', { name: 'Dismiss notice' });
    await dismiss.focus();
    await page.keyboard.press('Enter');
    await dismiss.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await focusedElement(page)).toEqual({ tag: 'h1', text: 'Dashboard', name: null });
  });
});
