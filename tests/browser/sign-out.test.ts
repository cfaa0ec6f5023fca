import type { Page } from 'playwright-core';
import { SlotLocation, type RecordListPayload } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage, locationSelector, SLOT_TIMEOUT_MS, waitForSlot } from '../../testing/system/slot-page';
import { waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(60_000);

const suite = useBrowserSuite();

const PROTECTED_LOCATIONS = SlotLocation.cases().filter((location) => !location.isPublic());

/** Slots rendered at protected locations, as `location/component`. */
function protectedSlots(page: Page): Promise<string[]> {
  return page.evaluate(
    (locations) =>
      locations.flatMap((location) =>
        [...document.querySelectorAll<HTMLElement>(`[data-slot-location="${location}"] [data-slot-component]`)].map(
          (slot) => `${location}/${slot.dataset.slotComponent}`,
        ),
      ),
    PROTECTED_LOCATIONS.map((location) => location.value),
  );
}

describe('signing out', () => {
  it('removes the protected slots, and going back in history shows no protected content', async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    const records = (await fetchInPage<RecordListPayload>(page, '/api/resources/articles/records')).body.records;
    const record = records[0];
    if (!record) throw new Error('The demo tenant has no article.');

    // History: a full page load of the record (a new document), then, inside the app, the list and the record
    // again (same-document entries, where React state could linger).
    await page.goto(`/resources/articles/${record.id}`);
    await waitForSlot(page, 'resource-page-actions', 'CopyLinkAction');
    await page.getByRole('link', { name: 'Articles' }).first().click();
    await page.waitForURL((url) => url.pathname === '/resources/articles');
    await page.locator('main').getByRole('link', { name: record.title, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/resources/articles/${record.id}`);
    await page.locator('h1').getByText(record.title).waitFor({ timeout: SLOT_TIMEOUT_MS });
    await waitForSlot(page, 'resource-before-relations', 'ActivityTimeline', { hasText: record.title });
    expect((await protectedSlots(page)).length).toBeGreaterThan(0);

    const [logout] = await Promise.all([
      page.waitForResponse(
        (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/logout',
      ),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    expect(logout.status()).toBe(204);
    await page.waitForURL((url) => url.pathname === '/login', { timeout: SLOT_TIMEOUT_MS });
    await waitForSlot(page, 'login-before-form', 'LoginNotice');
    expect(await protectedSlots(page)).toEqual([]);
    expect(await page.locator('select[name="tenant"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect((await fetchInPage<unknown>(page, '/meta')).status).toBe(401);

    // Back through the list (same document) and the first record page (another document).
    for (const step of ['articles list', 'record page (full load)']) {
      log.clear();
      await page.goBack();
      // Whatever the app decides (stay, or send to /login), give it time to fetch and render.
      await page.waitForLoadState('networkidle');
      await page.locator('input[name="password"]').waitFor({ timeout: SLOT_TIMEOUT_MS });
      expect({ step, slots: await protectedSlots(page) }).toEqual({ step, slots: [] });
      const text = await page.locator('body').innerText();
      expect({ step, showsRecord: text.includes(record.title), showsTenant: text.includes('Acme Corp') }).toEqual({
        step,
        showsRecord: false,
        showsTenant: false,
      });
      expect(await page.locator('[data-dashboard], section.relations, form[data-resource-form]').count()).toBe(0);
      // Nothing protected was served to the page after sign-out.
      const protectedAnswers = log.requests
        .filter((request) => request.path.split('?')[0] === '/meta' || request.path.startsWith('/api/resources'))
        .filter((request) => request.status !== undefined && request.status !== 401);
      expect(protectedAnswers).toEqual([]);
    }
    expect(await page.locator(locationSelector('tenant-switcher')).count()).toBe(0);
  });

  it('at /logout opened as an address: asks first, signs out with its button, then says nobody is signed in', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/logout');
    await page.getByRole('heading', { name: 'Sign out' }).waitFor({ timeout: SLOT_TIMEOUT_MS });
    // Opening it signed nobody out.
    expect((await fetchInPage<unknown>(page, '/me')).status).toBe(200);
    const [logout] = await Promise.all([
      page.waitForResponse(
        (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/logout',
      ),
      page.locator('main').getByRole('button', { name: 'Sign out' }).click(),
    ]);
    expect(logout.status()).toBe(204);
    await page.waitForURL((url) => url.pathname === '/login', { timeout: SLOT_TIMEOUT_MS });
    expect((await fetchInPage<unknown>(page, '/me')).status).toBe(401);
    await page.goto('/logout');
    await page.getByText('You are signed out.').waitFor({ timeout: SLOT_TIMEOUT_MS });
  });

  it('in another tab: this tab goes to the sign-in page saying so, and signing in brings it back to its page', async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/articles');
    await waitForSettledPage(page);

    const other = await page.context().newPage();
    await other.goto('/');
    await waitForSettledPage(other);
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.waitForURL((url) => url.pathname === '/login', { timeout: SLOT_TIMEOUT_MS });
    // The tab that signed out says it was done, and nothing of a session ended under it: its person asked.
    await other.getByRole('heading', { name: 'Sign in' }).waitFor();
    await other.getByRole('status').getByText('You are signed out.', { exact: true }).waitFor();
    expect(await other.getByText(/signed out in another tab|session has ended/).count()).toBe(0);

    await page.waitForURL((url) => url.pathname === '/login', { timeout: SLOT_TIMEOUT_MS });
    await page
      .getByRole('status')
      .getByText(
        'You signed out in another tab or window of this browser. Sign in again to continue where you left off.',
      )
      .waitFor({ timeout: SLOT_TIMEOUT_MS });
    await other.close();
    await signIn(page);
    await page.waitForURL((url) => url.pathname === '/resources/articles', { timeout: SLOT_TIMEOUT_MS });
    expect(log.pageErrors).toEqual([]);
  });
});
