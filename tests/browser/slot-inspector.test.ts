import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { RecordListPayload } from '../../shared';
import { startAppServer, startFixtureServer } from '../../testing/system/app-server';
import { assertBuilt } from '../../testing/system/build-output';
import { launchChromium } from '../../testing/system/chromium';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage, SLOT_TIMEOUT_MS, waitForSlot } from '../../testing/system/slot-page';

/**
 * The props contract end to end: a real server refuses to start on a REMOTES_CONFIG slot whose props the remote's
 * schema refuses, naming slot, component, prop path and remote; and the slot inspector page answers "why is my
 * component not on the page?" for signed-in staff, without the console.
 */
jest.setTimeout(120_000);

let browser: Browser;

beforeAll(async () => {
  assertBuilt();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function remotesConfig(dir: string, config: unknown): Promise<Record<string, string>> {
  const file = path.join(dir, 'remotes.json');
  await writeFile(file, JSON.stringify(config));
  return { REMOTES_CONFIG: file };
}

describe('start-up', () => {
  it('is refused when a configured slot breaks the schema of a built remote, with a message naming it all', async () => {
    const config = {
      remotes: [
        {
          name: 'team_marketing',
          slots: { 'header-banner': [{ component: 'LoginNotice', props: { title: 7, text: 'Welcome' } }] },
        },
      ],
    };
    const starting = startAppServer({ prepare: (dir) => remotesConfig(dir, config), readyTimeoutMs: 30_000 });
    await expect(starting).rejects.toThrow(
      'LoginNotice at header-banner[0] (configuration, remote "team_marketing"): props.title must be string, got 7',
    );
  });
});

describe.each([
  ['development', 'follows the navigation link'],
  ['production', 'is opened by its address'],
] as const)('the slot inspector of a %s server (%s)', (nodeEnv, opening) => {
  it('shows which slots of the page loaded, which failed and why, and what the server knows', async () => {
    const server = await startFixtureServer(
      { slots: { 'dashboard-after-cards': [{ component: 'WelcomeCard', props: { title: 42 } }] } },
      { nodeEnv },
    );
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await signIn(page);
      await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks');
      const navigationLink = page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Slot inspector' });
      // Staff find it in the navigation in production too, not only in development.
      await navigationLink.waitFor();
      if (opening === 'follows the navigation link') {
        await page.locator('[data-slot-component="WelcomeCard"][data-slot-failed="props-invalid"]').waitFor();
        // In the same tab, so the inspector has the dashboard's record.
        await navigationLink.click();
      } else {
        await page.goto('/inspect');
        // A full page load: the tab's record of the dashboard came from its sessionStorage.
        await page.getByRole('heading', { name: 'The page before: /', level: 2 }).waitFor();
        await expect(
          page.locator('[data-inspected-page="/"] tr[data-slot-component="ShortcutLinks"]').innerText(),
        ).resolves.toMatch(/dashboard-after-cards\s+ShortcutLinks\s+team_records\s+Loaded/);
      }
      await page.getByRole('heading', { name: 'Slot inspector', level: 1 }).waitFor();

      const registered = page.getByRole('region', { name: /Every slot of every location/ });
      const welcome = registered.locator('tr[data-inspected-slot="WelcomeCard"]');
      await welcome.waitFor();
      await expect(welcome.innerText()).resolves.toMatch(
        /dashboard-after-cards\s+WelcomeCard\s+team_marketing\s+code\s+protected\s+props\.title must be string, got 42/,
      );
      const remotes = page.getByRole('region', { name: /Every remote/ });
      await expect(remotes.locator('tr[data-inspected-remote="team_records"]').innerText()).resolves.toMatch(
        /team_records\s+\/remotes\/team_records\/mf-manifest\.json\s+built/,
      );

      // The browser's props check runs in development only: that failure is recorded there.
      if (nodeEnv === 'development') {
        const dashboard = page.locator('[data-inspected-page="/"]');
        // The demo's Callout holds another WelcomeCard (valid props) at dashboard-before-cards.
        const failed = dashboard.locator('tr[data-slot-component="WelcomeCard"]', { hasText: 'dashboard-after-cards' });
        await expect(failed.innerText()).resolves.toMatch(
          /dashboard-after-cards\s+WelcomeCard\s+team_marketing\s+Failed\s+props invalid: The slot's props do not match the props schema of "WelcomeCard": props\.title must be string, got 42/,
        );
        // Every demo slot's props match their schemas: the fixture's is the one failure.
        expect(await dashboard.locator('tr[data-slot-status="failed"]').count()).toBe(1);
        await expect(dashboard.locator('tr[data-slot-component="ShortcutLinks"]').innerText()).resolves.toMatch(
          /dashboard-after-cards\s+ShortcutLinks\s+team_records\s+Loaded/,
        );
      }
    } finally {
      await context.close();
      await server.stop();
    }
  });

  it('is for signed-in staff only', async () => {
    const server = await startAppServer({ nodeEnv });
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await page.goto('/inspect');
      await page.waitForURL((url) => url.pathname === '/login');
      const answer = await page.request.get('/api/slots/inspect');
      expect(answer.status()).toBe(401);
    } finally {
      await context.close();
      await server.stop();
    }
  });
});

describe('the slot inspector opened by its address on a production server', () => {
  it('shows the page before it with its failed slot and why, and forgets the record on sign-out', async () => {
    const server = await startFixtureServer(
      {
        resources: [
          {
            name: 'notes',
            label: 'Notes',
            fields: [
              { type: 'field', name: 'title', input: 'text', label: 'Title', required: true },
              // Not one of team_records' form components: refused in the form, in production too.
              { type: 'slot', component: 'ActivityTimeline', props: { limit: 3 } },
              { type: 'field', name: 'label', input: 'text', label: 'Label', required: true },
            ],
            records: { acme: [{ title: 'Fixture note', label: 'fixture-note' }] },
          },
        ],
      },
      { nodeEnv: 'production' },
    );
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await signIn(page);
      const [note] = (await fetchInPage<RecordListPayload>(page, '/api/resources/notes/records')).body.records;
      if (!note) throw new Error('The fixture server did not seed the note.');
      const editPage = `/resources/notes/${note.id}/edit`;
      await page.goto(editPage);
      await page.waitForFunction(
        () => document.querySelector('[data-form-slot="ActivityTimeline"]')?.getAttribute('data-slot-failed'),
        undefined,
        { timeout: SLOT_TIMEOUT_MS },
      );

      // Typed into the address bar, as staff do in production: a new page load.
      await page.goto('/inspect');
      await page.getByRole('heading', { name: `The page before: ${editPage}`, level: 2 }).waitFor();
      const edited = page.locator(`[data-inspected-page="${editPage}"]`);
      await expect(edited.locator('tr[data-slot-component="ActivityTimeline"]').innerText()).resolves.toMatch(
        /form:notes\s+ActivityTimeline\s+team_records\s+Failed\s+not a form component$/,
      );
      // What the server knows of the same form slot.
      const formSlots = page.getByRole('region', { name: /Every slot among a resource form/ });
      await expect(formSlots.locator('tr[data-inspected-form-slot="ActivityTimeline"]').innerText()).resolves.toMatch(
        /notes\s+1\s+ActivityTimeline\s+team_records\s+code\s+protected\s+remote "team_records" does not list "ActivityTimeline" among its formComponents/,
      );

      // Signing out leaves nothing of the record behind for whoever signs in next on this tab.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await signIn(page);
      await page.goto('/inspect');
      await page.getByRole('heading', { name: /^The page before: /, level: 2 }).waitFor();
      expect(await page.locator(`[data-inspected-page="${editPage}"]`).count()).toBe(0);
      expect(await page.evaluate(() => JSON.stringify(window.sessionStorage))).not.toContain('/resources/notes');

      // In a new tab, where nothing is recorded yet, the inspector says what to do (each tab keeps its own record).
      const newTab = await context.newPage();
      await newTab.goto('/inspect');
      await newTab
        .getByText('No page is recorded in this tab yet. Open the page you want to inspect, then come back here.')
        .waitFor();
    } finally {
      await context.close();
      await server.stop();
    }
  });
});

describe('the sign-in page on a phone', () => {
  it('records the sidebar as hidden by its media query, which the inspector then shows', async () => {
    const server = await startAppServer({ nodeEnv: 'development' });
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 390, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto('/login');
      await waitForSlot(page, 'login-before-form', 'LoginNotice');
      await signIn(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Slot inspector' }).click();
      const signInPage = page.locator('[data-inspected-page="/login"]');
      await expect(signInPage.locator('tr[data-slot-component="LoginSidebarPromo"]').innerText()).resolves.toMatch(
        /login-sidebar\s+LoginSidebarPromo\s+team_marketing\s+Hidden\s+hidden by the media query: \(min-width: 1024px\) does not match this window/,
      );
    } finally {
      await context.close();
      await server.stop();
    }
  });
});
