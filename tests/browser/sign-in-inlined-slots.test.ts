/**
 * The sign-in page carries its public slots in its session data (`{"me":null,"slots":…}`): the shell renders them in
 * their places with the form at once, whether or not GET /slots would ever answer.
 */
import type { Page } from 'playwright-core';
import { DESKTOP_VIEWPORT, useBrowserSuite } from '../../testing/system/browser-suite';
import { documentOrder, slotAt, waitForSlot } from '../../testing/system/slot-page';

jest.setTimeout(90_000);

const suite = useBrowserSuite();

/**
 * Records, at the first frame that shows the sign-in form's password field, each location wrapper on the page with
 * its slots and whether it comes before the form; and the form's distinct positions from then on.
 */
const RECORD_FIRST_FORM = `
window.__firstForm = null;
window.__formPositions = [];
const watch = () => {
  const form = document.querySelector('form.login__form');
  if (form && form.querySelector('input[name="password"]')) {
    if (window.__firstForm === null) {
      window.__firstForm = [...document.querySelectorAll('[data-slot-location]')].map((wrapper) => ({
        location: wrapper.dataset.slotLocation,
        components: [...wrapper.querySelectorAll('[data-slot-component]')].map((slot) => slot.dataset.slotComponent),
        beforeForm: Boolean(wrapper.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING),
      }));
    }
    const box = form.getBoundingClientRect();
    const last = window.__formPositions[window.__formPositions.length - 1];
    if (!last || last.top !== box.top || last.left !== box.left) window.__formPositions.push({ top: box.top, left: box.left });
  }
  requestAnimationFrame(watch);
};
requestAnimationFrame(watch);
`;

interface ShownLocation {
  location: string;
  components: string[];
  beforeForm: boolean;
}

function firstForm(page: Page): Promise<ShownLocation[]> {
  return page.evaluate(() => (window as unknown as { __firstForm: ShownLocation[] }).__firstForm);
}

it('shows the public slots in their places with the form when GET /slots never answers', async () => {
  const { page, log } = await suite.newPage({ viewport: DESKTOP_VIEWPORT });
  let release: () => void = () => undefined;
  const hung = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === '/slots',
    async (route) => {
      // Held until the test ends: a server whose GET /slots never answers.
      await hung;
      await route.abort().catch(() => undefined);
    },
  );
  await page.addInitScript(RECORD_FIRST_FORM);
  try {
    await page.goto('/login');
    await page.locator('form input[name="password"]').waitFor();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

    // In the frame the form first showed: every public slot at its own location, those above it above it.
    const shown = await firstForm(page);
    const at = (location: string) => shown.find((item) => item.location === location);
    expect(at('header-banner')).toEqual({
      location: 'header-banner',
      components: ['MaintenanceNotice'],
      beforeForm: true,
    });
    expect(at('global-before-content')).toMatchObject({ components: ['SystemStatus'], beforeForm: true });
    expect(at('login-before-form')).toMatchObject({ components: ['LoginNotice', 'Callout'], beforeForm: true });
    expect(at('login-after-form')).toMatchObject({ components: ['AccountHelp'], beforeForm: false });
    expect(at('login-sidebar')).toMatchObject({ components: ['LoginSidebarPromo'] });
    expect(at('global-after-content')).toMatchObject({ components: ['FooterLinks'], beforeForm: false });

    // Their components render there (the remotes load as ever), and the form has not moved since it showed.
    await waitForSlot(page, 'header-banner', 'MaintenanceNotice');
    await waitForSlot(page, 'login-before-form', 'LoginNotice');
    await waitForSlot(page, 'login-after-form', 'AccountHelp');
    await expect(slotAt(page, 'header-banner', 'MaintenanceNotice').textContent()).resolves.toContain('maintenance');
    const order = await documentOrder(page, [
      '[data-slot-location="header-banner"] [data-slot-component="MaintenanceNotice"]',
      '[data-slot-location="login-before-form"] [data-slot-component="LoginNotice"]',
      'form.login__form',
      '[data-slot-location="login-after-form"] [data-slot-component="AccountHelp"]',
    ]);
    expect(order).toEqual([0, 1, 2, 3]);
    const positions = await page.evaluate(() => (window as unknown as { __formPositions: unknown[] }).__formPositions);
    expect(positions).toHaveLength(1);
    // The page asked nothing for them: the slots came with it.
    expect(log.requestsTo('GET', '/slots')).toHaveLength(0);
    expect(log.pageErrors).toEqual([]);
  } finally {
    release();
  }
});
