import type { Browser } from 'playwright-core';
import { startFixtureServer } from '../../testing/system/app-server';
import { assertBuilt } from '../../testing/system/build-output';
import { launchChromium } from '../../testing/system/chromium';
import { sharedDevelopmentHost } from '../../testing/system/development-host';
import { startMissingManifestRemote, startThrowingRemote, type FakeRemote } from '../../testing/system/fake-remotes';
import { recordPage } from '../../testing/system/page-log';
import { writeRemotesConfig } from '../../testing/system/remotes-config-file';
import { DIST_DIR } from '../../testing/system/repo-root';
import { waitForSlot } from '../../testing/system/slot-page';

/**
 * How often the dev console tells of one slot's failure, with the host built for development (React's StrictMode
 * renders twice there) and for production, served by a development server (the placeholder with details): the
 * slot's failure is logged once, and its remote's once more (what failed, with the URL), not per render.
 */
jest.setTimeout(180_000);

const SLOT_FAILURE_LOG = '[slots] A slot could not be rendered; the rest of the page is unaffected.';
const REMOTE_FAILURE_LOG = '[slots] A remote could not be loaded;';

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

describe.each([
  ['development', () => developmentBuild],
  ['production', () => DIST_DIR],
])('the host built for %s', (_build, frontendDir) => {
  it('logs each failed slot once in the console, and each failed remote once', async () => {
    const remotes: FakeRemote[] = [
      await startMissingManifestRemote('team_missing', ['MissingWidget']),
      await startThrowingRemote('team_fixture'),
    ];
    const server = await startFixtureServer(
      {
        slots: {
          'login-before-form': [
            { component: 'MissingWidget', props: {} },
            { component: 'ThrowingWidget', props: {} },
          ],
        },
      },
      {
        nodeEnv: 'development',
        env: { FRONTEND_DIR: frontendDir() },
        prepare: (dir) =>
          writeRemotesConfig(
            dir,
            remotes.map((remote) => remote.descriptor()),
          ),
      },
    );
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      const log = recordPage(page);
      await page.goto('/login', { waitUntil: 'domcontentloaded' });
      await waitForSlot(page, 'login-before-form', 'LoginNotice');
      for (const component of ['MissingWidget', 'ThrowingWidget']) {
        await page
          .locator(`[data-slot-component="${component}"] .slot-failure`)
          .waitFor({ state: 'visible', timeout: 15_000 });
      }
      // Time for anything logged late (a second render, a retry of the manifest) to arrive.
      await page.waitForTimeout(2_000);

      const told: Record<string, string[]> = { MissingWidget: [], ThrowingWidget: [], team_missing: [] };
      for (const entry of log.console) {
        if (entry.type !== 'error' && entry.type !== 'warning') continue;
        const said = `${entry.text} ${JSON.stringify(await entry.args)}`;
        for (const name of Object.keys(told)) if (said.includes(name)) told[name]!.push(entry.text.slice(0, 80));
      }
      // Each slot: its own failure, once (StrictMode's second render adds none). The remote that could not be
      // loaded: once by the host (with the URL and the attempts), besides the Module Federation runtime's own warning.
      expect(told.ThrowingWidget!.filter((text) => text.startsWith(SLOT_FAILURE_LOG))).toHaveLength(1);
      expect(told.MissingWidget!.filter((text) => text.startsWith(SLOT_FAILURE_LOG))).toHaveLength(1);
      expect(told.ThrowingWidget).toHaveLength(1);
      expect(told.MissingWidget).toHaveLength(1);
      expect(told.team_missing!.filter((text) => text.startsWith(REMOTE_FAILURE_LOG))).toHaveLength(1);
    } finally {
      await context.close();
      await server.stop();
      await Promise.all(remotes.map((remote) => remote.close()));
    }
  });
});
