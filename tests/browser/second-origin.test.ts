import path from 'node:path';
import type { RemotesPayload } from '../../shared';
import { startAppServer } from '../../testing/system/app-server';
import { builtRemoteEntryFile } from '../../testing/system/build-output';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import type { HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { writeRemotesConfig } from '../../testing/system/remotes-config-file';
import { DIST_DIR } from '../../testing/system/repo-root';
import { signIn } from '../../testing/system/sign-in';
import { waitForSlot } from '../../testing/system/slot-page';
import { startStaticServer } from '../../testing/system/static-server';

jest.setTimeout(60_000);

let cdn: HttpFixtureServer | undefined;

/**
 * team_marketing deployed on its own origin: a plain static server on another port serving the files of the same
 * build (`dist/remotes/team_marketing`), and the server's REMOTES_CONFIG pointing at it. Nothing is rebuilt.
 */
const suite = useBrowserSuite({
  startServer: async () => {
    cdn = await startStaticServer(path.join(DIST_DIR, 'remotes', 'team_marketing'));
    const entry = `${cdn.url}/mf-manifest.json`;
    return startAppServer({ prepare: (dir) => writeRemotesConfig(dir, [{ name: 'team_marketing', entry }]) });
  },
});

afterEach(async () => {
  await cdn?.close();
  cdn = undefined;
});

describe('a remote on a second origin', () => {
  it('loads from there after a change of REMOTES_CONFIG only, next to a remote served by the server', async () => {
    const origin = cdn?.url ?? '';
    const catalogue = (await (await fetch(`${suite.url}/api/remotes`)).json()) as RemotesPayload;
    const marketing = catalogue.remotes.find((remote) => remote.name === 'team_marketing');
    expect(marketing?.entry).toBe(`${origin}/mf-manifest.json`);
    // Its components still come from the build's own descriptor.
    expect(marketing?.components).toEqual(expect.arrayContaining(['LoginNotice', 'Callout', 'WelcomeCard']));

    const { page, log } = await suite.newPage();
    await page.goto('/login');
    await waitForSlot(page, 'login-before-form', 'LoginNotice', { hasText: 'Welcome back' });
    await waitForSlot(page, 'login-after-form', 'AccountHelp');
    await waitForSlot(page, 'header-banner', 'MaintenanceNotice');

    await signIn(page);
    // A marketing component (second origin) nested in... a marketing component, next to team_records' switcher.
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard', { hasText: 'Welcome to your content workspace' });
    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });

    // Its manifest first (the server does not read a remote elsewhere), then the hashed entry the manifest names.
    const entryFile = `/${builtRemoteEntryFile('team_marketing')}`;
    expect(entryFile).toMatch(/^\/remoteEntry\.[0-9a-f]{10}\.js$/);
    const fromCdn = log.requests.filter((request) => request.origin === origin).map((request) => request.path);
    expect(fromCdn).toEqual(expect.arrayContaining(['/mf-manifest.json', entryFile]));
    // Its components in one chunk (remoteWebpackConfig's componentsTogether).
    expect(fromCdn.some((file) => /^\/components\.[0-9a-f]{10}\.js$/.test(file))).toBe(true);
    expect(cdn?.requests.map((request) => request.url)).toEqual(
      expect.arrayContaining(['/mf-manifest.json', entryFile]),
    );
    // Nothing of team_marketing came from the server itself any more; team_records still does.
    expect(
      log.requests.filter(
        (request) => request.origin === suite.url && request.path.startsWith('/remotes/team_marketing/'),
      ),
    ).toEqual([]);
    expect(
      log.requests.some((request) => request.origin === suite.url && request.path.startsWith('/remotes/team_records/')),
    ).toBe(true);
    expect(log.requests.filter((request) => request.failure !== undefined)).toEqual([]);
    expect(log.consoleMatching(/\[slots\]|Content Security Policy|CORS/i, ['error', 'warning'])).toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });
});
