import type { Page } from 'playwright-core';
import { DEMO_SIGN_IN_HINT } from '../../server/demo';
import { DEMO_USERNAME, startAppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(60_000);

/** Few attempts, so that the lock-out comes quickly; the window is the default (15 minutes). */
const ATTEMPTS = 3;

const suite = useBrowserSuite({
  startServer: () => startAppServer({ env: { LOGIN_RATE_LIMIT: String(ATTEMPTS) } }),
  prestart: true,
});

async function attempt(page: Page, password: string): Promise<string> {
  await page.locator('input[name="username"]').fill(DEMO_USERNAME);
  await page.locator('input[name="password"]').fill(password);
  const [answer] = await Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname === '/login'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  const alert = page.getByRole('alert');
  await alert.waitFor();
  expect(answer.ok()).toBe(false);
  return (await alert.textContent()) ?? '';
}

/** What a screen reader reads with a field: the text of what its aria-describedby points at. */
function description(page: Page, name: string): Promise<string> {
  return page.locator(`input[name="${name}"]`).evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

describe('sign-in feedback', () => {
  it('ties a refusal to both fields, returns focus to the password, and says how long a lock-out lasts', async () => {
    const { page } = await suite.newPage();
    await page.goto('/login');
    await waitForSettledPage(page);
    // The demo's hint says where the password comes from, whichever way this database was made.
    await page.getByText(DEMO_SIGN_IN_HINT).waitFor();

    const refused = await attempt(page, 'not the password');
    expect(refused).toBe('Invalid username or password.');
    for (const name of ['username', 'password']) {
      expect(await page.locator(`input[name="${name}"]`).getAttribute('aria-invalid')).toBe('true');
      expect(await description(page, name)).toBe(refused);
    }
    // Focus back on the password, selected, so typing replaces it.
    expect((await focusedElement(page)).name).toBe('password');
    expect(
      await page
        .locator('input[name="password"]')
        .evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd]),
    ).toEqual([0, 'not the password'.length]);

    let message = refused;
    for (let tries = 1; tries <= ATTEMPTS && message === refused; tries += 1) {
      message = await attempt(page, `wrong ${tries}`);
    }
    // The default window is 15 minutes: the wait is said in minutes, rounded up.
    expect(message).toMatch(/^Too many sign-in attempts\. Try again in 1[45] minutes\.$/);
    expect(await description(page, 'password')).toBe(message);
    // Nothing is wrong with what the fields hold: the attempts are what is refused.
    for (const name of ['username', 'password']) {
      expect(await page.locator(`input[name="${name}"]`).getAttribute('aria-invalid')).toBeNull();
    }
    expect((await focusedElement(page)).name).toBe('password');
  });
});
