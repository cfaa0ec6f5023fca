import path from 'node:path';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { runServerCommand } from '../../testing/server/run-server-command';

jest.setTimeout(60_000);

describe('npm run flag', () => {
  let dir: TempDir;
  beforeEach(() => {
    dir = makeTempDir('slots-flag-');
  });
  afterEach(() => dir.remove());

  it('sets a flag for a tenant there is, and refuses a tenant there is not, changing nothing', async () => {
    const env = { DATABASE_PATH: path.join(dir.path, 'app.db') };
    expect((await runServerCommand('tenant-add.ts', ['acme'], env)).code).toBe(0);

    const typo = await runServerCommand('feature-flag.ts', ['set', 'beta', 'on', '--tenant', 'acmee'], env);
    expect([typo.code, typo.stdout]).toEqual([1, '']);
    expect(typo.stderr).toBe('Unknown tenant "acmee". Tenants: acme. Nothing was changed.\n');
    expect((await runServerCommand('feature-flag.ts', ['list'], env)).stdout).toMatch(/^No feature flag is set in /);

    const set = await runServerCommand('feature-flag.ts', ['set', 'beta', 'on', '--tenant', 'acme'], env);
    expect([set.code, set.stdout]).toEqual([0, 'Flag "beta" is on for tenant "acme".\n']);
  });
});
