import path from 'node:path';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { runServerCommand } from '../../testing/server/run-server-command';

jest.setTimeout(90_000);

describe('npm run user:disable / user:enable', () => {
  let dir: TempDir;
  beforeEach(() => {
    dir = makeTempDir('slots-user-access-');
  });
  afterEach(() => dir.remove());

  it('say what an account is: disabled in user:add and user:permission show, and no change when there is none', async () => {
    const env = { DATABASE_PATH: path.join(dir.path, 'app.db') };
    const run = (script: string, args: string[], input?: string) => runServerCommand(script, args, env, input);
    expect((await run('tenant-add.ts', ['acme'])).code).toBe(0);
    expect((await run('user-add.ts', ['ann', '--tenant', 'acme'], 'ann-password-1234\n')).code).toBe(0);

    // Each answer names the database it changed or read, as every command does.
    const where = `SQLite ${env.DATABASE_PATH}`;
    expect((await run('user-access.ts', ['disable', 'ann'])).stdout).toBe(
      `Disabled "ann" in ${where}: it cannot sign in, and its open sessions end at their next request.\n`,
    );
    expect((await run('user-access.ts', ['disable', 'ann'])).stdout).toBe(
      `"ann" is already disabled in ${where}. Nothing was changed.\n`,
    );
    // A new password does not give the access back, and the operator is told.
    const reset = await run('user-add.ts', ['ann'], 'ann-new-password-5678\n');
    expect(reset.stdout).toMatch(
      /^Set a new password for "ann" .* It is disabled: it cannot sign in until DATABASE_PATH=\S+ npm run user:enable -- ann\.\n$/,
    );
    const shown = (await run('user-permission.ts', ['show', 'ann'])).stdout;
    expect(shown).toMatch(
      /; disabled: it cannot sign in \(DATABASE_PATH=\S+ npm run user:enable -- ann gives it back\)/,
    );
    expect(shown.endsWith(`\n(in ${where})\n`)).toBe(true);

    expect((await run('user-access.ts', ['enable', 'ann'])).stdout).toBe(
      `Enabled "ann" again in ${where}: it can sign in with its password.\n`,
    );
    expect((await run('user-access.ts', ['enable', 'ann'])).stdout).toBe(
      `"ann" is already enabled in ${where}: it can sign in with its password. Nothing was changed.\n`,
    );
    expect((await run('user-permission.ts', ['show', 'ann'])).stdout).not.toContain('disabled');

    // Asking for help is no mistake: the usage on stdout, exit 0.
    const help = await run('user-access.ts', ['disable', '--help']);
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/\nusage: npm run user:disable -- <username>/);
  });
});
