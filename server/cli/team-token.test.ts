import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';

/** A server command on the SQLite file at `database`. */
function run(script: string, args: string[], database: string, input = ''): Promise<CommandRun> {
  return runServerCommand(script, args, { DATABASE_PATH: database, DATABASE_URL: '' }, input);
}

jest.setTimeout(60_000);

describe('npm run token:add / token:revoke / user:add --role', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('prints the new token alone on its last line; it publishes for that remote until revoked; both audited as cli', async () => {
    const added = await run('team-token.ts', ['add', 'team_billing', '--expires', '30d'], testApp.databasePath);
    expect(added.code).toBe(0);
    const token = added.stdout.trimEnd().split('\n').at(-1) as string;
    expect(token).toMatch(/^slt_[0-9a-f]+_\S+$/);
    const checked = await testApp.app.teamTokens.check(token);
    expect(checked).toMatchObject({ status: 'valid', remote: 'team_billing' });
    const id = checked.status === 'valid' ? checked.id : '';

    const revoked = await run('team-token.ts', ['revoke', id], testApp.databasePath);
    expect(revoked.code).toBe(0);
    expect(await testApp.app.teamTokens.check(token)).toEqual({ status: 'invalid' });
    expect((await run('team-token.ts', ['revoke', id], testApp.databasePath)).code).toBe(1);

    const history = await testApp.app.releases.history('team_billing');
    expect(history.map((entry) => [entry.action, entry.actor, entry.before, entry.after])).toEqual([
      ['token-revoke', 'cli', { id }, null],
      ['token-add', 'cli', null, { id, expiresAt: expect.any(String) }],
    ]);
  });

  it('refuses a malformed command with its usage', async () => {
    const refused = await run('team-token.ts', ['add', 'Not A Remote'], testApp.databasePath);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/usage: npm run token:add/);
    expect((await run('team-token.ts', ['add', 'team_x', '--expires', 'soon'], testApp.databasePath)).code).toBe(2);
  });

  it('gives an account the operator role with user:add --role operator', async () => {
    const added = await run('user-add.ts', ['ops', '--role', 'operator'], testApp.databasePath, 'ops-password-123\n');
    expect(added.code).toBe(0);
    expect((await testApp.app.users.findByUsername('ops'))?.roles).toEqual(['operator']);
    await run('user-add.ts', ['ops', '--role', 'none'], testApp.databasePath, 'ops-password-123\n');
    expect((await testApp.app.users.findByUsername('ops'))?.roles).toEqual([]);
  });
});
