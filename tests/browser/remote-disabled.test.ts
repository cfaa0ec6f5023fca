import { startAppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { writeRemotesConfig } from '../../testing/system/remotes-config-file';
import { signIn } from '../../testing/system/sign-in';
import { expectToolsUnavailableButTenantSwitchWorks } from '../../testing/system/unavailable-tools';

jest.setTimeout(60_000);

// team_records, the remote of the tenant switcher, switched off in the server's remotes configuration.
const suite = useBrowserSuite({
  startServer: () =>
    startAppServer({ prepare: (dir) => writeRemotesConfig(dir, [{ name: 'team_records', enabled: false }]) }),
});

describe('when the remote of the tenant switcher is switched off', () => {
  it('shows a quiet notice and the host’s own tenant switcher', async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    await expectToolsUnavailableButTenantSwitchWorks(page);
    expect(log.requests.filter((request) => request.path.startsWith('/remotes/team_records/'))).toEqual([]);
  });

  it('is named by the slot inspector as a disabled remote, not as an unknown component', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.locator('[data-slot-component="ShortcutLinks"][data-slot-failed]').waitFor({ state: 'attached' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Slot inspector' }).click();
    const row = page.locator('[data-inspected-page="/"] tr[data-slot-component="ShortcutLinks"]');
    // The page's record shows at once; the server's inspection, which knows the remote is disabled, a moment later.
    await row.filter({ hasText: 'remote disabled' }).waitFor();
    await expect(row.innerText()).resolves.toMatch(
      /dashboard-after-cards\s+ShortcutLinks\s+team_records\s+Failed\s+remote disabled: team_records is switched off \("enabled": false in REMOTES_CONFIG\)/,
    );
  });
});
