import { addOperator, createTestApp, type TestApp } from '../../testing/server/test-app';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';

/** A server command on the SQLite file at `database`. */
function run(script: string, args: string[], database: string, input = ''): Promise<CommandRun> {
  return runServerCommand(script, args, { DATABASE_PATH: database, DATABASE_URL: '' }, input);
}

jest.setTimeout(60_000);

/** `npm run user:add -- <name> --tenant <id> --role <role>` and `npm run user:permission`, as real processes. */
describe('npm run user:add --tenant --role / user:permission', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.app.tenants.save({ id: 'acme', name: 'Acme' });
    await testApp.app.tenants.save({ id: 'globex', name: 'Globex' });
    // An operator of every tenant: the grants taken back below are never the last administrator's, which is refused.
    await addOperator(testApp.app, 'admin', undefined, ['acme', 'globex']);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('gives each membership the role after its --tenant, says so, and keeps the account role apart', async () => {
    const args = ['tess', '--role', 'viewer', '--tenant', 'acme', '--role', 'operator', '--tenant', 'globex'];
    const added = await run('user-add.ts', args, testApp.databasePath, 'tess-password-123\n');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/tenants: acme \(operator\), globex; role: viewer\)/);
    const user = (await testApp.app.users.findByUsername('tess'))!;
    expect(user.roles).toEqual(['viewer']);
    expect([...(await testApp.app.tenants.membershipsOf(user.id)).roles]).toEqual([['acme', 'operator']]);
  });

  it('grants, shows and revokes permissions; refuses an unknown one naming it, changing nothing', async () => {
    await run(
      'user-add.ts',
      ['gus', '--tenant', 'globex', '--role', 'viewer'],
      testApp.databasePath,
      'gus-password-123\n',
    );
    const granted = await run('user-permission.ts', ['grant', 'gus', 'releases:manage'], testApp.databasePath);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain('"gus": role none (an editor); granted: releases:manage');
    expect(granted.stdout).toContain('globex: role viewer (membership); may records:read, releases:manage');
    expect((await testApp.app.users.findByUsername('gus'))?.grantedPermissions).toEqual(['releases:manage']);

    const unknown = await run(
      'user-permission.ts',
      ['grant', 'gus', 'records:write', 'records:nuke'],
      testApp.databasePath,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /Unknown permission "records:nuke"\. Permissions: records:read, .*Nothing was changed/,
    );
    expect((await testApp.app.users.findByUsername('gus'))?.grantedPermissions).toEqual(['releases:manage']);

    expect((await run('user-permission.ts', ['revoke', 'gus', 'releases:manage'], testApp.databasePath)).code).toBe(0);
    expect((await testApp.app.users.findByUsername('gus'))?.grantedPermissions).toEqual([]);
    // Revoking what was never granted is said, not passed over.
    const again = await run('user-permission.ts', ['revoke', 'gus', 'releases:manage'], testApp.databasePath);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^"gus" had no grant of releases:manage: nothing to revoke there \(a role may give it\)\.\n/,
    );
    expect((await run('user-permission.ts', ['grant', 'nobody', 'records:read'], testApp.databasePath)).code).toBe(1);
    expect((await run('user-permission.ts', ['grant', 'gus'], testApp.databasePath)).stderr).toMatch(
      /usage: npm run user:permission/,
    );
  });

  it('says when a grant or an own role reaches the tenants the account is not a member of, and when it does not', async () => {
    await run('user-add.ts', ['bob', '--tenant', 'globex'], testApp.databasePath, 'bob-password-123\n');
    const granted = await run('user-permission.ts', ['grant', 'bob', 'placements:edit'], testApp.databasePath);
    expect(granted.code).toBe(0);
    // A member of globex alone now reads and changes the placements acme is served: said, with the way to avoid it.
    expect(granted.stdout).toContain(
      'It holds placements:edit in every tenant, by its own role or a grant, so it reads and changes the placements ' +
        'of tenants it is not a member of too (acme). To keep it to its tenants, give it the role there instead',
    );
    expect((await run('user-permission.ts', ['show', 'bob'], testApp.databasePath)).stdout).toContain(
      'It holds placements:edit in every tenant',
    );
    // Its password reset says the grant it keeps, and what it reaches.
    const reset = await run('user-add.ts', ['bob'], testApp.databasePath, 'bob-password-456\n');
    expect(reset.stdout).toContain(
      'Set a new password for "bob" (tenants: globex; role: none (an editor); granted: placements:edit)',
    );
    expect(reset.stdout).toContain('It holds placements:edit in every tenant');

    // The role given in its tenant instead reaches nothing beyond it: no such line.
    expect((await run('user-permission.ts', ['revoke', 'bob', 'placements:edit'], testApp.databasePath)).code).toBe(0);
    const scoped = await run(
      'user-add.ts',
      ['bob', '--keep-password', '--tenant', 'globex', '--role', 'operator'],
      testApp.databasePath,
    );
    expect(scoped.stdout).toContain('Kept the password of "bob" (tenants: globex (operator); role: none (an editor))');
    expect(scoped.stdout).not.toContain('in every tenant');
    expect((await run('user-permission.ts', ['show', 'bob'], testApp.databasePath)).stdout).not.toContain(
      'in every tenant',
    );
    // An operator role of its own, before --tenant, does reach them.
    const own = await run('user-add.ts', ['bob', '--keep-password', '--role', 'operator'], testApp.databasePath);
    expect(own.stdout).toContain(
      'It holds releases:manage and placements:edit in every tenant, by its own role or a grant, so it reads and ' +
        'changes the releases of remotes and the placements of tenants it is not a member of too (acme).',
    );
  });

  it('replaces the grants with user:add --permission, and takes them away with --permission none', async () => {
    const args = ['pat', '--permission', 'placements:edit', '--permission', 'records:write'];
    expect((await run('user-add.ts', args, testApp.databasePath, 'pat-password-123\n')).code).toBe(0);
    expect((await testApp.app.users.findByUsername('pat'))?.grantedPermissions).toEqual([
      'records:write',
      'placements:edit',
    ]);
    await run('user-add.ts', ['pat', '--permission', 'none'], testApp.databasePath, 'pat-password-123\n');
    expect((await testApp.app.users.findByUsername('pat'))?.grantedPermissions).toEqual([]);
    const refused = await run('user-add.ts', ['pat', '--permission', 'all'], testApp.databasePath, 'x\n');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Unknown permission "all"/);
  });
});
