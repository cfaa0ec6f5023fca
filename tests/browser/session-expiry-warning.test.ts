import { startAppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { firstRecord, focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(90_000);

/** A 12 s idle limit: the warning comes half of it (6 s) before the end, a limit this short leaving no more. */
const IDLE_SECONDS = 12;

/** The idle limit of the next test's server (a describe block may set another). */
let idleSeconds = IDLE_SECONDS;

const suite = useBrowserSuite({
  startServer: () => startAppServer({ env: { SESSION_IDLE_MINUTES: String(idleSeconds / 60) } }),
});

/** Signed in, on an article's edit form, the focus in its title. */
async function inTitleOfAnArticle() {
  const { page } = await suite.newPage();
  await signIn(page);
  const article = await firstRecord(page, 'articles');
  await page.goto(`/resources/articles/${article.id}/edit`);
  await waitForSettledPage(page);
  const title = page.locator('form[data-resource-form="articles"] [name="title"]');
  await title.click();
  return { page, article, title };
}

describe('the warning before the idle limit ends a session', () => {
  it('comes before the end, keeps the session on "Stay signed in", gives the focus back, and the server decides', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await waitForSettledPage(page);
    const search = page.locator('nav.nav').getByRole('link', { name: 'Dashboard' });
    await search.focus();

    // Left alone, the page warns about 6 s before the end, and puts the focus on the way to stay.
    const warning = page.getByRole('alertdialog', { name: 'Your session is about to end' });
    await warning.waitFor({ timeout: IDLE_SECONDS * 1000 });
    await expect(warning.textContent()).resolves.toMatch(/You will be signed out in 0:0\d for inactivity\./);
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Stay signed in' });
    await page.keyboard.press('Enter');
    await warning.waitFor({ state: 'detached' });
    expect(await focusedElement(page)).toMatchObject({ tag: 'a', text: 'Dashboard' });

    // Past the first session's end: the server kept it, as the page said.
    await page.waitForTimeout(4_000);
    const me = await page.evaluate(async () => (await fetch('/me', { credentials: 'same-origin' })).status);
    expect(me).toBe(200);

    // Warned again and left alone, the session ends: the sign-in page says why.
    await warning.waitFor({ timeout: IDLE_SECONDS * 1000 });
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 10_000 });
    await page
      .getByRole('status')
      .getByText(
        `You were signed out after ${IDLE_SECONDS} seconds without activity. Sign in again to continue where you left off.`,
      )
      .waitFor();
  });

  it('leaves the focus in a text box someone is typing in: no keystroke presses its button or is lost', async () => {
    const { page, title } = await inTitleOfAnArticle();
    await page.keyboard.press('End');
    const before = await title.inputValue();

    const warning = page.getByRole('alertdialog', { name: 'Your session is about to end' });
    await warning.waitFor({ timeout: IDLE_SECONDS * 1000 });
    expect(await focusedElement(page)).toMatchObject({ tag: 'input' });
    // Said to screen readers, with the keyboard way to stay (no twelve Tabs to its button).
    await page
      .locator('[aria-live="assertive"]')
      .getByText('press Escape, or go on typing, to stay signed in', { exact: false })
      .waitFor();
    // Going on typing is using the session: every keystroke lands in the box, and the warning goes.
    await page.keyboard.type(' and a space');
    await expect(title.inputValue()).resolves.toBe(`${before} and a space`);
    expect(await focusedElement(page)).toMatchObject({ tag: 'input' });
    await warning.waitFor({ state: 'detached' });

    // Warned again: Escape, which types nothing, stays signed in too.
    await warning.waitFor({ timeout: IDLE_SECONDS * 1000 });
    await page.keyboard.press('Escape');
    await warning.waitFor({ state: 'detached' });
    await expect(title.inputValue()).resolves.toBe(`${before} and a space`);
    expect(await focusedElement(page)).toMatchObject({ tag: 'input' });
  });

  it('counts typing as use: someone typing every half second past the idle limit is neither warned nor signed out', async () => {
    const { page, article } = await inTitleOfAnArticle();
    const warning = page.getByRole('alertdialog', { name: 'Your session is about to end' });
    // Twice the idle limit, without saving.
    for (let typed = 0; typed < (IDLE_SECONDS * 2 * 1000) / 500; typed += 1) {
      await page.keyboard.type('a');
      await page.waitForTimeout(500);
      expect(await warning.count()).toBe(0);
    }
    expect(new URL(page.url()).pathname).toBe(`/resources/articles/${article.id}/edit`);
    const me = await page.evaluate(async () => (await fetch('/me', { credentials: 'same-origin' })).status);
    expect(me).toBe(200);
  });
});

describe('the warning at a one-minute idle limit', () => {
  beforeAll(() => {
    idleSeconds = 60;
  });
  afterAll(() => {
    idleSeconds = IDLE_SECONDS;
  });

  it('comes 30 s before the end, time enough to act, not the quarter of the limit (15 s) it was', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await waitForSettledPage(page);
    const warning = page.getByRole('alertdialog', { name: 'Your session is about to end' });
    await warning.waitFor({ timeout: 60_000 });
    // Read as it shows: the countdown starts at the lead (a second's tick may have passed).
    await expect(warning.textContent()).resolves.toMatch(/You will be signed out in 0:(2[89]|30) for inactivity\./);
    await page.keyboard.press('Enter');
    await warning.waitFor({ state: 'detached' });
    const me = await page.evaluate(async () => (await fetch('/me', { credentials: 'same-origin' })).status);
    expect(me).toBe(200);
  });
});
