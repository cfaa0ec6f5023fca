/**
 * Staff whose session store stops answering (Redis frozen) are not shown as signed out: a page loaded during the
 * outage says the service is unavailable and tries again by itself, never the sign-in form (signing in would only
 * fail too, and the session lives on), with the public slots still shown; once Redis answers again the same page goes on, signed in, without a sign-in.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../../testing/system/chromium';
import { startAppServer, type AppServer } from '../../testing/system/app-server';
import { signIn } from '../../testing/system/sign-in';
import { waitForSlot } from '../../testing/system/slot-page';
import { signOutNotEndedMessage } from '../../shared';
import { RedisServerProcess } from '../../testing/system/redis-server-process';

jest.setTimeout(120_000);

let redis: RedisServerProcess;
let server: AppServer;
let browser: Browser;

beforeAll(async () => {
  redis = await RedisServerProcess.start();
  server = await startAppServer({
    env: { REDIS_URL: redis.url, SESSION_SECRET: 'session-outage-page-test-secret-0123456789' },
  });
  browser = await launchChromium();
});

/** A page of `context` signed in on the articles list, and its Sign out button. */
async function signedInOnArticles(context: BrowserContext) {
  const page = await context.newPage();
  await signIn(page);
  await page.goto('/resources/articles');
  const signOut = page.getByRole('button', { name: 'Sign out' });
  await signOut.waitFor();
  return { page, signOut };
}

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await redis?.stop();
});

it('shows the outage with a retry while Redis is frozen, and the signed-in page again once it answers', async () => {
  const context = await browser.newContext({ baseURL: server.url });
  try {
    const { page, signOut } = await signedInOnArticles(context);
    redis.pause();
    await page.reload();
    const outage = page.locator('[data-session-status="unavailable"]');
    await outage.waitFor({ timeout: 30_000 });
    expect(await outage.getByRole('heading', { level: 1 }).innerText()).toBe('The service is temporarily unavailable');
    expect(await outage.getByRole('button', { name: /Try again/ }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/resources/articles');
    expect(await page.locator('input[name="password"]').count()).toBe(0);
    expect(await signOut.count()).toBe(0);
    // The public slots need no session (GET /slots reads no store): the maintenance notice stays on the page.
    await waitForSlot(page, 'header-banner', 'MaintenanceNotice', { timeout: 10_000 });

    redis.resume();
    // Asked again by itself (after about 2 s, then 4 s...): the same page, signed in, without signing in again.
    await signOut.waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).pathname).toBe('/resources/articles');
    expect(await outage.count()).toBe(0);
  } finally {
    redis.resume();
    await context.close();
  }
});

it('signs this browser out when Redis is frozen at a sign-out, and says the session ends on its own', async () => {
  const context = await browser.newContext({ baseURL: server.url });
  try {
    const { page, signOut } = await signedInOnArticles(context);
    redis.pause();
    await signOut.click();
    // The default idle limit is 30 minutes: the stored session ends that long after its last use.
    await page.getByRole('alert').getByText(signOutNotEndedMessage(30)).waitFor({ timeout: 30_000 });
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('slots.sid');

    // Once Redis answers again, this browser is not signed in: the next person at it finds the sign-in form.
    redis.resume();
    await page.goto('/resources/articles');
    await page.locator('input[name="password"]').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
  } finally {
    redis.resume();
    await context.close();
  }
});
