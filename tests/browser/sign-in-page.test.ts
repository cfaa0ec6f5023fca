import { SlotLocation, type SignedOutBootData, type SlotEntry, type SlotsPayload } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { saveScreenshot } from '../../testing/system/screenshots';
import {
  componentSelector,
  componentsAt,
  documentOrder,
  locationSelector,
  renderedLocations,
  waitForSlot,
} from '../../testing/system/slot-page';

jest.setTimeout(60_000);

const suite = useBrowserSuite();

/** The public slots as the server registered them, read outside the page so the page's own traffic stays clean. */
async function publicSlots(): Promise<SlotsPayload['slots']> {
  const response = await fetch(`${suite.url}/slots`);
  return ((await response.json()) as SlotsPayload).slots;
}

function componentNames(entries: SlotEntry[] | undefined): string[] {
  return (entries ?? []).map((entry) => entry.component);
}

function stringProp(entry: SlotEntry | undefined, name: string): string {
  const value = entry?.props[name];
  if (typeof value !== 'string') throw new Error(`The demo slot ${entry?.component} has no string prop "${name}".`);
  return value;
}

const FORM = 'form:has(input[name="password"])';
const SESSION_DATA = /<script type="application\/json" id="slots-session-data">(.*?)<\/script>/s;

describe('sign-in page', () => {
  it('renders the public slots of team_marketing around the form, in registration order, and nothing protected', async () => {
    const slots = await publicSlots();
    const before = slots['login-before-form'] ?? [];
    const after = slots['login-after-form'] ?? [];
    expect(componentNames(before)).toEqual(['LoginNotice', 'Callout']);
    expect(componentNames(after)).toEqual(['AccountHelp']);

    const { page, log } = await suite.newPage();
    const served = await page.goto('/login');
    await page.locator(`${FORM} input[name="username"]`).waitFor();
    // What the page was given, in its session data (what GET /slots answers): public locations only.
    const inlined = SESSION_DATA.exec((await served?.text()) ?? '')?.[1] ?? '';
    const received = (JSON.parse(inlined) as Required<SignedOutBootData>).slots.slots;
    expect(Object.keys(received).filter((location) => !SlotLocation.from(location).isPublic())).toEqual([]);
    expect(received).toEqual(slots);

    await waitForSlot(page, 'login-before-form', 'LoginNotice', { hasText: stringProp(before[0], 'title') });
    await waitForSlot(page, 'login-before-form', 'Callout', { hasText: String(before[1]?.content) });
    await waitForSlot(page, 'login-after-form', 'AccountHelp', { hasText: 'Forgot your password?' });
    expect(await componentsAt(page, 'login-before-form')).toEqual(['LoginNotice', 'Callout']);
    expect(await componentsAt(page, 'login-after-form')).toEqual(['AccountHelp']);

    // before-form slots, then the form, then after-form slots.
    expect(
      await documentOrder(page, [
        componentSelector('LoginNotice', 'login-before-form'),
        componentSelector('Callout', 'login-before-form'),
        FORM,
        componentSelector('AccountHelp', 'login-after-form'),
      ]),
    ).toEqual([0, 1, 2, 3]);

    // The global chrome renders on the sign-in page too.
    await waitForSlot(page, 'header-banner', 'MaintenanceNotice', {
      hasText: stringProp(slots['header-banner']?.[0], 'message'),
    });
    await waitForSlot(page, 'global-before-content', 'SystemStatus', {
      hasText: stringProp(slots['global-before-content']?.[0], 'text'),
    });
    await waitForSlot(page, 'global-after-content', 'FooterLinks', { hasText: 'Privacy' });
    expect(
      await documentOrder(page, [
        locationSelector('global-before-content'),
        FORM,
        locationSelector('global-after-content'),
      ]),
    ).toEqual([0, 1, 2]);

    // Nothing protected: no tenant switcher, no slot at any protected location.
    expect(await page.locator('select[name="tenant"]').count()).toBe(0);
    for (const location of SlotLocation.cases().filter((candidate) => !candidate.isPublic())) {
      expect(await page.locator(`${locationSelector(location.value)} [data-slot-component]`).count()).toBe(0);
    }
    expect((await renderedLocations(page)).filter((location) => !SlotLocation.from(location).isPublic())).toEqual([]);

    await page.waitForLoadState('networkidle');
    // The public slots came with the page: no GET /slots for them.
    expect(log.requestsTo('GET', '/slots')).toEqual([]);
    expect(log.requestsTo('GET', '/meta')).toEqual([]);
    // The page says nobody is signed in: no GET /me for its 401, and so no failed request in the console.
    expect(log.requestsTo('GET', '/me')).toEqual([]);
    expect(log.consoleMatching(/./, ['error'])).toEqual([]);
    expect(log.requestsTo('GET', /^\/remotes\/team_marketing\//).length).toBeGreaterThan(0);
    // The sign-in page uses only team_marketing's components: team_records is never fetched.
    expect(log.requests.filter((request) => request.path.startsWith('/remotes/team_records/'))).toEqual([]);
    expect(log.pageErrors).toEqual([]);
    expect(log.consoleMatching(/\[slots\]/, ['error', 'warning'])).toEqual([]);

    await saveScreenshot(page, 'sign-in');
  });

  it('renders login-sidebar at 1280 px wide and not at 600 px', async () => {
    const slots = await publicSlots();
    const promoTitle = stringProp(slots['login-sidebar']?.[0], 'title');

    const wide = await suite.newPage({ viewport: { width: 1280, height: 900 } });
    await wide.page.goto('/login');
    await waitForSlot(wide.page, 'login-sidebar', 'LoginSidebarPromo', { hasText: promoTitle });
    expect(await componentsAt(wide.page, 'login-sidebar')).toEqual(['LoginSidebarPromo']);

    const narrow = await suite.newPage({ viewport: { width: 600, height: 900 } });
    await narrow.page.goto('/login');
    // Wait for the rest of the page, so "absent" means "not rendered", not "not yet".
    await waitForSlot(narrow.page, 'login-after-form', 'AccountHelp', { hasText: 'Forgot your password?' });
    await narrow.page.waitForLoadState('networkidle');
    expect(await narrow.page.locator(componentSelector('LoginSidebarPromo')).count()).toBe(0);
    expect(await narrow.page.getByText(promoTitle).count()).toBe(0);
    await saveScreenshot(narrow.page, 'sign-in-narrow');

    // Widening the window past 1024 px brings the sidebar in, without a reload.
    await narrow.page.setViewportSize({ width: 1280, height: 900 });
    await waitForSlot(narrow.page, 'login-sidebar', 'LoginSidebarPromo', { hasText: promoTitle });
  });
});
