import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { componentSelector, fetchInPage } from '../../testing/system/slot-page';
import { focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(60_000);

const suite = useBrowserSuite();

describe('addresses outside the app’s pages', () => {
  it('answer a browser with the app’s own not-found page (404), and an API client with JSON', async () => {
    const { page } = await suite.newPage();
    const response = await page.goto('/settings');
    expect(response?.status()).toBe(404);
    await waitForSettledPage(page);
    expect(await page.title()).toBe('Page not found · Slots Admin');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('h1').textContent()).toBe('Page not found');
    // The app around it: its header, and a way back.
    await page.locator('header').getByRole('link', { name: 'Slots Admin' }).waitFor();
    const wayBack = page.getByRole('link', { name: 'Go to the dashboard' });
    await wayBack.waitFor();
    // Underlined: its colour alone does not set it apart from the sentence around it.
    expect(await wayBack.evaluate((link) => getComputedStyle(link).textDecorationLine)).toBe('underline');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect({ width, violations: await axeViolations(page) }).toEqual({ width, violations: [] });
    }

    const api = await fetchInPage<{ error: { code: string } }>(page, '/settings');
    expect(api).toEqual({ status: 404, body: { error: { code: 'not_found', message: expect.any(String) } } });
    expect((await fetchInPage<{ error: { code: string } }>(page, '/api/nothing')).status).toBe(404);
  });
});

describe('Service status', () => {
  it('stays in the app: the footer link opens the status page, which reads the readiness checks', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await waitForSettledPage(page);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    await page.locator(componentSelector('FooterLinks')).getByRole('link', { name: 'Service status' }).click();
    await page.waitForURL((url) => url.pathname === '/status');
    await waitForSettledPage(page);
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.title()).toBe('Service status · Slots Admin');
    expect(await focusedElement(page)).toEqual({ tag: 'h1', text: 'Service status', name: null });
    await page.getByText('All services are working.').waitFor();
    const checks = await page.locator('.status-checks dt').allInnerTexts();
    expect(checks.map((check) => check.toLowerCase())).toContain('database');
  });
});
