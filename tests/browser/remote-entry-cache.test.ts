import { startAppServer } from '../../testing/system/app-server';
import { BUILT_REMOTES, builtRemoteEntryFile } from '../../testing/system/build-output';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { waitForSlot } from '../../testing/system/slot-page';

jest.setTimeout(60_000);

/** The server logs one line per request (LOG_REQUESTS=1): what reached it, whatever the browser says it loaded. */
const suite = useBrowserSuite({ startServer: () => startAppServer({ env: { LOG_REQUESTS: '1' } }), prestart: true });

interface Served {
  url: string;
  status: number;
}

/** The requests the server has answered so far, from its request log lines. */
function served(): Served[] {
  return suite.server.process
    .logLines<{ msg?: string; req?: { url?: string }; res?: { statusCode?: number } }>()
    .flatMap((entry) =>
      entry.msg === 'request completed' && entry.req?.url
        ? [{ url: entry.req.url, status: entry.res?.statusCode ?? 0 }]
        : [],
    );
}

/**
 * The requests served once the server has logged one made after everything before it (the log is then complete up
 * to here). The marker request itself (`/slots?marker=…`) is left out.
 */
async function servedUpToNow(): Promise<Served[]> {
  const marker = `/slots?marker=${Date.now()}`;
  await fetch(`${suite.url}${marker}`);
  await suite.server.process.waitForOutput(new RegExp(`"url":"${marker.replace('?', '\\?')}"`));
  return served().filter((request) => !request.url.startsWith('/slots?marker='));
}

const remoteFiles = (requests: Served[], remote: string) =>
  requests.filter((request) => request.url.startsWith(`/remotes/${remote}/`));

describe('remote files named by their content', () => {
  it('load each remote as hashed entry and one components chunk, no manifest; a warm load asks for no remote file', async () => {
    const entries = new Map(BUILT_REMOTES.map((remote) => [remote, builtRemoteEntryFile(remote) ?? '']));
    for (const file of entries.values()) expect(file).toMatch(/^remoteEntry\.[0-9a-f]{10}\.js$/);
    const { page } = await suite.newPage();

    await page.goto('/login');
    await waitForSlot(page, 'login-before-form', 'LoginNotice', { hasText: 'Welcome back' });
    await signIn(page);
    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard');
    await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks');

    const cold = await servedUpToNow();
    for (const remote of BUILT_REMOTES) {
      // Everything of the remote, whichever of its components the pages rendered (several of each): two files. The
      // page's boot data registers the remote by its entry, so the runtime has no manifest to ask for.
      expect(
        remoteFiles(cold, remote)
          .map((request) => request.url.replace(/\.[0-9a-f]{10}\.js$/, '.<hash>.js'))
          .sort(),
      ).toEqual([`/remotes/${remote}/components.<hash>.js`, `/remotes/${remote}/remoteEntry.<hash>.js`]);
      expect(remoteFiles(cold, remote).map((request) => request.url)).toContain(
        `/remotes/${remote}/${entries.get(remote)}`,
      );
    }
    const entryResponse = await page.request.get(`/remotes/team_records/${entries.get('team_records')}`);
    expect(entryResponse.headers()['cache-control']).toBe('public, max-age=31536000, immutable');

    // The same page again in the same browser: the entries and chunks come from its cache without a question, and
    // the page names the entries in force, so nothing of the remotes reaches the server.
    const before = (await servedUpToNow()).length;
    await page.goto('/');
    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard');
    await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks');
    const warm = (await servedUpToNow()).slice(before);
    expect(warm.some((request) => request.url === '/')).toBe(true);
    expect(warm.filter((request) => request.url.startsWith('/remotes/'))).toEqual([]);
  });
});
