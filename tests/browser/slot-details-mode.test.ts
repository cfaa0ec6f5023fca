import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { SlotSchemasPayload } from '../../shared';
import { startFixtureServer } from '../../testing/system/app-server';
import { assertBuilt } from '../../testing/system/build-output';
import { launchChromium } from '../../testing/system/chromium';
import { sharedDevelopmentHost } from '../../testing/system/development-host';
import { DIST_DIR } from '../../testing/system/repo-root';
import { signIn } from '../../testing/system/sign-in';
import { waitForSlot } from '../../testing/system/slot-page';

/**
 * Whether a failed slot shows a placeholder naming its component, remote and error is the server's decision
 * (NODE_ENV), sent with the remotes, never the host build's mode: a development build served in production shows
 * nothing, a production build served in development shows the details. The same goes for the props check before
 * rendering: a development server's host refuses props its schema refuses and says why (for signed-in staff: the
 * schemas need a session); a production server's host never loads the schemas.
 */
jest.setTimeout(180_000);

let browser: Browser;
/** The development host's folder, built once for every file that needs it (never removed here: shared). */
let developmentBuild: string;

beforeAll(async () => {
  assertBuilt();
  browser = await launchChromium();
  developmentBuild = await sharedDevelopmentHost();
});

afterAll(async () => {
  await browser?.close();
});

/** A remote that is configured but down: its slot fails on every page load. */
async function ghostRemoteConfig(dir: string): Promise<Record<string, string>> {
  const file = path.join(dir, 'remotes.json');
  const ghost = {
    name: 'ghost_remote',
    entry: 'http://127.0.0.1:9/remoteEntry.js',
    components: ['GhostWidget'],
    slots: { 'login-before-form': [{ component: 'GhostWidget', props: { secretish: 'internal' } }] },
  };
  await writeFile(file, JSON.stringify({ remotes: [ghost] }));
  return { REMOTES_CONFIG: file };
}

describe.each([
  ['production build', () => DIST_DIR],
  ['development build', () => developmentBuild],
])("a failed slot with the host's %s", (_build, frontendDir) => {
  it.each([
    ['development', true],
    ['production', false],
  ] as const)('a %s server: placeholder with the reason shown = %s', async (nodeEnv, shown) => {
    // The fixture entry starts despite the wrong props (slotProblems 'log'): what the host does with them is tested.
    const server = await startFixtureServer(
      { slots: { 'dashboard-after-cards': [{ component: 'WelcomeCard', props: { title: 42 } }] } },
      { nodeEnv, env: { FRONTEND_DIR: frontendDir() }, prepare: ghostRemoteConfig },
    );
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      const schemaRequests: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/slots/schemas') schemaRequests.push(request.url());
      });
      await page.goto('/login');
      // The rest of the page renders either way.
      await waitForSlot(page, 'login-before-form', 'LoginNotice');
      const failed = page.locator('[data-slot-component="GhostWidget"][data-slot-failed]');
      await failed.waitFor({ state: 'attached', timeout: 15_000 });
      // Signed out, a development server gives the schemas of the public slots' components only (none at all in
      // production): WelcomeCard's, at a protected location, comes after sign-in.
      const schemas = await page.request.get('/api/slots/schemas');
      expect(schemas.status()).toBe(shown ? 200 : 404);
      if (shown) {
        const body = (await schemas.json()) as SlotSchemasPayload;
        expect(body.partial).toBe(true);
        expect(Object.keys(body.schemas)).toContain('LoginNotice');
        expect(Object.keys(body.schemas)).not.toContain('WelcomeCard');
      }
      if (shown) {
        const placeholder = page.locator('[data-slot-component="GhostWidget"] .slot-failure');
        await placeholder.waitFor({ state: 'visible' });
        await expect(placeholder.textContent()).resolves.toMatch(/GhostWidget.*login-before-form.*ghost_remote/);
      } else {
        expect(await page.locator('.slot-failure').count()).toBe(0);
        const visibleText = await page.locator('body').innerText();
        expect(visibleText).not.toMatch(/GhostWidget|ghost_remote|schema/);
      }

      // Signed in, on a page loaded afresh: a development server's host checks props against the schemas.
      await signIn(page);
      await page.goto('/');
      if (shown) {
        const invalid = page.locator('[data-slot-component="WelcomeCard"] [data-slot-failure="props-invalid"]');
        await invalid.waitFor({ state: 'visible', timeout: 15_000 });
        await expect(invalid.textContent()).resolves.toContain(
          'Slot “WelcomeCard” did not render at dashboard-after-cards (remote team_marketing)' +
            'The slot\'s props do not match the props schema of "WelcomeCard": props.title must be string, got 42',
        );
      } else {
        // WelcomeCard renders with what it was given: nothing is checked, nothing is loaded for checking.
        await waitForSlot(page, 'dashboard-after-cards', 'WelcomeCard');
        expect(await page.locator('.slot-failure').count()).toBe(0);
        expect(schemaRequests).toEqual([]);
      }
    } finally {
      await context.close();
      await server.stop();
    }
  });
});
