import { startAppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { firstRecord, focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(90_000);

/** A 12 s idle limit, for the session warning to come (a quarter of it, 3 s, before the end). */
const IDLE_SECONDS = 12;

const suite = useBrowserSuite({
  startServer: () => startAppServer({ env: { SESSION_IDLE_MINUTES: String(IDLE_SECONDS / 60) } }),
});

describe('a dialog keeps the focus inside while it is open', () => {
  it('the confirm dialog: Tab from its last button goes to its first, Shift+Tab back, Escape gives the focus back', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    const article = await firstRecord(page, 'articles');
    await page.goto(`/resources/articles/${article.id}`);
    await waitForSettledPage(page);
    const opener = page.getByRole('button', { name: `Delete ${article.title}` });
    await opener.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: `Delete “${article.title}”?` }).waitFor();
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Cancel' });

    // Cancel is the last button: Tab goes round to Delete, not out of the dialog, and on to Cancel again.
    await page.keyboard.press('Tab');
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Delete' });
    await page.keyboard.press('Tab');
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Cancel' });
    // Shift+Tab from the first goes round to the last.
    await page.keyboard.press('Shift+Tab');
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Delete' });
    await page.keyboard.press('Shift+Tab');
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Cancel' });

    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    // Back on the button that asked.
    expect(await opener.evaluate((button) => button === document.activeElement)).toBe(true);
  });

  it('the session warning: Tab and Shift+Tab stay on its button, Escape keeps the session and gives the focus back', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await waitForSettledPage(page);
    await page.locator('nav.nav').getByRole('link', { name: 'Dashboard' }).focus();

    const warning = page.getByRole('alertdialog', { name: 'Your session is about to end' });
    await warning.waitFor({ timeout: IDLE_SECONDS * 1000 });
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Stay signed in' });
    await page.keyboard.press('Tab');
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Stay signed in' });
    await page.keyboard.press('Shift+Tab');
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Stay signed in' });

    await page.keyboard.press('Escape');
    await warning.waitFor({ state: 'detached' });
    expect(await focusedElement(page)).toMatchObject({ tag: 'a', text: 'Dashboard' });
  });
});
