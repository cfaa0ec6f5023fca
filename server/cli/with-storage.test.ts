import { existsSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { runServerCommand } from '../../testing/server/run-server-command';

jest.setTimeout(60_000);

/**
 * A DATABASE_PATH mistyped or forgotten: the commands that change an installation refuse a file that is not there
 * rather than make an empty database and change it (a token, a flag, a reload no server sees, said to succeed).
 */
describe('a command pointed at no database', () => {
  let dir: TempDir;
  let file: string;
  beforeEach(() => {
    dir = makeTempDir('slots-no-database-');
    file = path.join(dir.path, 'typo.db');
  });
  afterEach(() => dir.remove());

  it.each([
    ['team-token.ts', ['add', 'team_marketing']],
    ['team-token.ts', ['revoke', '0123456789ab']],
    ['feature-flag.ts', ['set', 'beta', 'on']],
    ['remotes-reload.ts', []],
    ['user-access.ts', ['disable', 'ann']],
    ['user-permission.ts', ['show', 'ann']],
  ])('%s %j is refused, exit 1, and makes no file', async (script, args) => {
    const run = await runServerCommand(script, args, { DATABASE_PATH: file });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`There is no SQLite database at ${file}: the server makes it at its first start.`);
    expect(run.stdout).toBe('');
    expect(existsSync(file)).toBe(false);
  });

  it('user:add makes it (an installation set up before its first start), and says so', async () => {
    const run = await runServerCommand('user-add.ts', ['ada'], { DATABASE_PATH: file }, 'ada-password-1234\n');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Made a new database at ${file}: no server has used it yet.`);
    expect(existsSync(file)).toBe(true);
  });
});
