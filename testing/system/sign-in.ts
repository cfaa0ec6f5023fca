import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, DEMO_USERNAME } from './app-server';
import { SLOT_TIMEOUT_MS } from './slot-page';

/**
 * Signs in through the sign-in page's form (inputs `username` and `password`), as a person
 * would, and waits until the host has left /login for the page it was sent to.
 */
export async function signIn(
  page: Page,
  credentials: { username: string; password: string } = { username: DEMO_USERNAME, password: DEMO_PASSWORD },
): Promise<void> {
  if (new URL(page.url() === 'about:blank' ? 'http://x/' : page.url()).pathname !== '/login') await page.goto('/login');
  const form = page.locator('form:has(input[name="password"])');
  await form.locator('input[name="username"]').fill(credentials.username);
  await form.locator('input[name="password"]').fill(credentials.password);
  const [response] = await Promise.all([
    page.waitForResponse(
      (candidate) => candidate.request().method() === 'POST' && new URL(candidate.url()).pathname === '/login',
    ),
    form.locator('button[type="submit"]').click(),
  ]);
  if (response.status() !== 200) {
    throw new Error(`POST /login answered ${response.status()}: ${await response.text()}`);
  }
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: SLOT_TIMEOUT_MS });
}
