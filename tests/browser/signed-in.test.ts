import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { type MetaPayload, type MePayload, type RecordListPayload } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { BUILT_REMOTES } from '../../testing/system/build-output';
import { DIST_DIR } from '../../testing/system/repo-root';
import { saveScreenshot } from '../../testing/system/screenshots';
import { signIn } from '../../testing/system/sign-in';
import {
  componentsAt,
  documentOrder,
  fetchInPage,
  locationSelector,
  SLOT_TIMEOUT_MS,
  waitForSlot,
} from '../../testing/system/slot-page';

jest.setTimeout(60_000);

const suite = useBrowserSuite();

/** The dashboard cards as the page shows them: `title: value` per card. */
async function shownCards(page: Page): Promise<string[]> {
  return page
    .locator('[data-dashboard] .stat-card')
    .evaluateAll((cards) =>
      cards.map(
        (card) =>
          `${card.querySelector('.stat-card__title')?.textContent}: ${card.querySelector('.stat-card__value')?.textContent}`,
      ),
    );
}

function expectedCards(meta: MetaPayload): string[] {
  return meta.dashboards.flatMap((dashboard) => dashboard.cards.map((card) => `${card.title}: ${card.value}`));
}

async function waitForCards(page: Page, expected: string[]): Promise<void> {
  await page.waitForFunction(
    (wanted) =>
      JSON.stringify(
        [...document.querySelectorAll('[data-dashboard] .stat-card')].map(
          (card) =>
            `${card.querySelector('.stat-card__title')?.textContent}: ${card.querySelector('.stat-card__value')?.textContent}`,
        ),
      ) === JSON.stringify(wanted),
    expected,
    { timeout: SLOT_TIMEOUT_MS },
  );
}

describe('signed in', () => {
  it('loads slots from GET /meta and renders the protected locations and the tenant switcher', async () => {
    const { page, log } = await suite.newPage();
    await page.goto('/login');
    await page.locator('input[name="username"]').waitFor();
    log.clear();
    await signIn(page);
    expect(new URL(page.url()).pathname).toBe('/');

    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    await waitForSlot(page, 'dashboard-before-cards', 'Callout', { hasText: 'Welcome to your content workspace' });
    await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks', { hasText: 'All articles' });
    // Nested content: the Callout renders the WelcomeCard slot as its children.
    expect(await componentsAt(page, 'dashboard-before-cards', { nested: true })).toEqual(['Callout', 'WelcomeCard']);
    await waitForSlot(page, 'header-banner', 'MaintenanceNotice');
    await waitForSlot(page, 'global-before-content', 'SystemStatus');
    await waitForSlot(page, 'global-after-content', 'FooterLinks');

    const meta = await fetchInPage<MetaPayload>(page, '/meta');
    expect(meta.status).toBe(200);
    await waitForCards(page, expectedCards(meta.body));
    expect(
      await documentOrder(page, [
        locationSelector('dashboard-before-cards'),
        '[data-dashboard]',
        locationSelector('dashboard-after-cards'),
      ]),
    ).toEqual([0, 1, 2]);
    // The sign-in page's locations are gone with the sign-in page.
    for (const location of ['login-before-form', 'login-after-form', 'login-sidebar'] as const) {
      expect(await page.locator(locationSelector(location)).count()).toBe(0);
    }

    expect(log.requestsTo('GET', '/meta').length).toBeGreaterThanOrEqual(1);
    expect(log.requests.some((request) => request.path.startsWith('/remotes/team_records/'))).toBe(true);
    expect(log.pageErrors).toEqual([]);
    expect(log.consoleMatching(/\[slots\]|Invalid hook call/, ['error', 'warning'])).toEqual([]);
    await saveScreenshot(page, 'dashboard');
  });

  it('renders a signed-in page from the data the server put into it: no GET /meta before the slots', async () => {
    const { page, log } = await suite.newPage();
    await page.goto('/login');
    await page.locator('input[name="username"]').waitFor();
    await signIn(page);
    // The sign-in page's own move to the dashboard asks GET /meta; that settles first.
    await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks');
    await page.waitForLoadState('networkidle');
    log.clear();
    await page.goto('/');

    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    await waitForSlot(page, 'dashboard-before-cards', 'Callout', { hasText: 'Welcome to your content workspace' });
    await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks', { hasText: 'All articles' });
    const document = log.requestsTo('GET', '/');
    expect(document.length).toBe(1);
    expect(log.requestsTo('GET', '/meta')).toEqual([]);
    // The data is a JSON block read by the host, never a script: the Content-Security-Policy refuses nothing.
    expect(log.consoleMatching(/Content Security Policy|Refused to/, ['error', 'warning'])).toEqual([]);
    expect(log.pageErrors).toEqual([]);

    // Signed out, the same address carries no one's session data, only that nobody is signed in.
    await page.evaluate(() => fetch('/logout', { method: 'POST' }).then((response) => response.status));
    const anonymous = await page.request.get('/');
    // With the public slots only (what GET /slots answers anybody): no tenant's, no user's.
    const text = await anonymous.text();
    const element = /<script type="application\/json" id="slots-session-data">(.*?)<\/script>/s.exec(text)?.[1];
    expect(JSON.parse(element ?? '')).toEqual({ me: null, slots: await (await page.request.get('/slots')).json() });
    expect(anonymous.headers()['cache-control']).toBe('no-cache');
  });

  it('sends a signed-in full load of /login on to the dashboard from its session data: one source, no GET /slots', async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks');
    await page.waitForLoadState('networkidle');
    log.clear();
    await page.goto('/login');

    await page.waitForURL((url) => url.pathname === '/');
    await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks', { hasText: 'All articles' });
    expect(log.requestsTo('GET', '/slots')).toEqual([]);
    expect(log.requestsTo('GET', '/meta')).toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });

  it('switches tenant through the TenantSwitcher slot, and the dashboard and the records follow', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    const me = await fetchInPage<MePayload>(page, '/me');
    expect(me.body.user.currentTenant).toBe('acme');
    expect(me.body.user.tenants.map((tenant) => tenant.id).sort()).toEqual(['acme', 'globex']);

    const acmeMeta = (await fetchInPage<MetaPayload>(page, '/meta')).body;
    const acmeCards = expectedCards(acmeMeta);
    await waitForCards(page, acmeCards);
    expect(acmeCards).toContain('Tenant: Acme Corp');
    const acmeTitles = (await fetchInPage<RecordListPayload>(page, '/api/resources/articles/records')).body.records.map(
      (record) => record.title,
    );

    // Choosing in the list switches nothing by itself; the Switch button does.
    await page.locator(`${locationSelector('tenant-switcher')} select[name="tenant"]`).selectOption('globex');
    const [switched] = await Promise.all([
      page.waitForResponse(
        (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/tenant',
      ),
      page.locator(locationSelector('tenant-switcher')).getByRole('button', { name: 'Switch' }).click(),
    ]);
    expect(switched.status()).toBe(200);

    const globexMeta = (await fetchInPage<MetaPayload>(page, '/meta')).body;
    const globexCards = expectedCards(globexMeta);
    expect(globexCards).toContain('Tenant: Globex');
    expect(globexCards).not.toEqual(acmeCards);
    await waitForCards(page, globexCards);
    expect((await fetchInPage<MePayload>(page, '/me')).body.user.currentTenant).toBe('globex');
    expect(await page.locator(`${locationSelector('tenant-switcher')} select[name="tenant"]`).inputValue()).toBe(
      'globex',
    );

    // The records list shows the new tenant's records and none of the old one's.
    const globexTitles = (
      await fetchInPage<RecordListPayload>(page, '/api/resources/articles/records')
    ).body.records.map((record) => record.title);
    expect(globexTitles).not.toEqual(acmeTitles);
    await page.goto('/resources/articles');
    for (const title of globexTitles)
      await page.getByText(title, { exact: true }).first().waitFor({ timeout: SLOT_TIMEOUT_MS });
    const listText = await page.locator('main').innerText();
    for (const title of acmeTitles.filter((candidate) => !globexTitles.includes(candidate))) {
      expect(listText).not.toContain(title);
    }
  });

  it('runs every remote on the host’s one React: shared once, and hooks work inside remote components', async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    // Components of both remotes on one page; TenantSwitcher uses useState, useEffect and useId.
    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard');
    await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks');

    // Every federation instance's share scope: package -> version -> who provided it and who uses it.
    const shared = await page.evaluate(() => {
      type Entry = { from?: string; loaded?: boolean; useIn?: string[] };
      type Scopes = Record<string, Record<string, Record<string, Record<string, Entry>>>>;
      const federation = (window as unknown as { __FEDERATION__?: { __SHARE__?: Scopes } }).__FEDERATION__;
      const found: Array<{
        instance: string;
        pkg: string;
        version: string;
        from?: string;
        loaded: boolean;
        useIn: string[];
      }> = [];
      for (const [instance, scopes] of Object.entries(federation?.__SHARE__ ?? {})) {
        for (const packages of Object.values(scopes)) {
          for (const [pkg, versions] of Object.entries(packages)) {
            for (const [version, entry] of Object.entries(versions)) {
              found.push({
                instance,
                pkg,
                version,
                from: entry.from,
                loaded: entry.loaded === true,
                useIn: entry.useIn ?? [],
              });
            }
          }
        }
      }
      return found;
    });
    for (const pkg of ['react', 'react/jsx-runtime', 'react-dom']) {
      const entries = shared.filter((entry) => entry.pkg === pkg);
      expect(entries.length).toBeGreaterThan(0);
      // One version, provided by the host, loaded once: every instance points at the same provider.
      expect([...new Set(entries.map((entry) => `${entry.version} from ${entry.from}`))]).toEqual([
        `${entries[0]?.version} from host`,
      ]);
      expect(entries.every((entry) => entry.loaded)).toBe(true);
    }
    for (const pkg of ['react', 'react/jsx-runtime']) {
      // Both remotes took the host's copy rather than their own.
      for (const entry of shared.filter((candidate) => candidate.pkg === pkg)) {
        expect(entry.useIn).toEqual(expect.arrayContaining(['host', 'team_marketing', 'team_records']));
      }
    }
    // And neither remote downloaded the React fallback chunks its manifest lists.
    const fallbackChunks = BUILT_REMOTES.flatMap((remote) => {
      const manifest = JSON.parse(readFileSync(path.join(DIST_DIR, 'remotes', remote, 'mf-manifest.json'), 'utf8')) as {
        shared: Array<{ assets: { js: { sync: string[]; async: string[] } } }>;
      };
      return manifest.shared
        .flatMap((item) => [...item.assets.js.sync, ...item.assets.js.async])
        .map((file) => `/remotes/${remote}/${file}`);
    });
    expect(fallbackChunks.length).toBeGreaterThan(0);
    expect(log.requests.filter((request) => fallbackChunks.includes(request.path))).toEqual([]);
    expect(log.consoleMatching(/Invalid hook call|more than one copy of React/i)).toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });
});
