import { OPERATOR_ROLE } from '../../shared';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';

jest.setTimeout(120_000);

/** A server command on the SQLite file at `database`. */
function run(script: string, args: string[], database: string, input = ''): Promise<CommandRun> {
  return runServerCommand(script, args, { DATABASE_PATH: database, DATABASE_URL: '' }, input);
}

/** `npm run user:list` and `npm run tenant:list`, as real processes on a database the other commands filled. */
describe('npm run user:list / tenant:list', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('says there is nothing yet, with the command that adds the first', async () => {
    const users = await run('user-list.ts', [], testApp.databasePath);
    expect(users.code).toBe(0);
    expect(users.stdout).toContain(`There is no staff account in SQLite ${testApp.databasePath} yet: add one with`);
    const tenants = await run('tenant-list.ts', [], testApp.databasePath);
    expect(tenants.code).toBe(0);
    expect(tenants.stdout).toContain(`There is no tenant in SQLite ${testApp.databasePath} yet`);
    expect(tenants.stdout).toContain('(0 tenants in');

    // An account before any tenant: `--tenant <id>` alone named a tenant there was none of; tenant:add comes first.
    await testApp.app.users.upsert('early', 'not-a-real-hash');
    const prefix = `DATABASE_PATH=${testApp.databasePath} npm run`;
    const way =
      `belongs to no tenant, so it cannot sign in until given one (there is no tenant yet: create one with ` +
      `${prefix} tenant:add -- <id>, then ${prefix} user:add -- early --keep-password --tenant <id>)`;
    const listed = await run('user-list.ts', [], testApp.databasePath);
    expect([listed.code, listed.stdout]).toEqual([
      0,
      `early: role none (an editor); ${way}; granted: none\n(1 account in SQLite ${testApp.databasePath})\n`,
    ]);
    const shown = await run('user-permission.ts', ['show', 'early'], testApp.databasePath);
    expect(shown.stdout).toContain(`\n  It ${way}.\n`);
  });

  it('lists each account with its role, tenants, grants, reach and state, and each tenant with its members', async () => {
    await testApp.app.tenants.save({ id: 'acme', name: 'Acme' });
    await testApp.app.tenants.save({ id: 'globex', name: 'Globex Corp' });
    const add = (args: string[], password: string) => run('user-add.ts', args, testApp.databasePath, `${password}\n`);
    expect((await add(['zoe', '--role', 'operator'], 'zoe-password-123')).code).toBe(0);
    expect((await add(['ann', '--tenant', 'acme', '--role', 'viewer'], 'ann-password-123')).code).toBe(0);
    expect((await add(['bob', '--tenant', 'globex', '--permission', 'placements:edit'], 'bob-password-123')).code).toBe(
      0,
    );
    expect((await run('user-access.ts', ['disable', 'ann'], testApp.databasePath)).code).toBe(0);
    // An account made before any tenant existed belongs to none: an operator, whose role reaches every tenant it
    // could sign in to, and it can sign in to none.
    await testApp.app.users.upsert('early', 'not-a-real-hash');
    await testApp.app.users.setRole('early', OPERATOR_ROLE);
    const giveEarly = `DATABASE_PATH=${testApp.databasePath} npm run user:add -- early --keep-password --tenant <id>`;

    const listed = await run('user-list.ts', [], testApp.databasePath);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(
      [
        'ann: role none (an editor); tenants: acme (viewer); granted: none; disabled',
        'bob: role none (an editor); tenants: globex; granted: placements:edit; placements:edit in the other tenants too (acme)',
        `early: role operator; belongs to no tenant, so it cannot sign in until given one (${giveEarly}); granted: none`,
        'zoe: role operator; tenants: acme, globex; granted: none',
        `(4 accounts in SQLite ${testApp.databasePath})`,
        '',
      ].join('\n'),
    );
    // Never a password hash.
    expect(listed.stdout).not.toMatch(/scrypt|\$|not-a-real-hash/);
    // Nor "in the other tenants" of an account in none, in user:permission show either.
    const early = await run('user-permission.ts', ['show', 'early'], testApp.databasePath);
    expect(early.stdout).toBe(
      `"early": role operator; granted: none\n  It belongs to no tenant, so it cannot sign in until given one ` +
        `(${giveEarly}).\n(in SQLite ${testApp.databasePath})\n`,
    );

    const ofAcme = await run('user-list.ts', ['--tenant=acme'], testApp.databasePath);
    expect(ofAcme.stdout.split('\n').map((line) => line.split(':')[0])).toEqual([
      'ann',
      'zoe',
      `(2 accounts of tenant "acme" in SQLite ${testApp.databasePath})`,
      '',
    ]);

    const unknown = await run('user-list.ts', ['--tenant', 'Acme'], testApp.databasePath);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown tenant "Acme" (ids are exact: "acme"?). Tenants: acme, globex.');
    for (const args of [['acme'], ['--tenant'], ['--tenant', 'acme', 'globex'], ['--all']]) {
      const usage = await run('user-list.ts', args, testApp.databasePath);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('usage: npm run user:list -- [--tenant <id>]');
    }

    const tenants = await run('tenant-list.ts', [], testApp.databasePath);
    expect(tenants.stderr).toBe('');
    // A disabled member is marked, as user:list marks it; the account of no tenant is named in the command.
    expect(tenants.stdout).toBe(
      [
        'acme: "Acme"; 2 members, 1 of them disabled (ann)',
        'globex: "Globex Corp"; 2 members',
        `One account belongs to no tenant and cannot sign in: early (${giveEarly}).`,
        `(2 tenants in SQLite ${testApp.databasePath})`,
        '',
      ].join('\n'),
    );
    const extra = await run('tenant-list.ts', ['acme'], testApp.databasePath);
    expect([extra.code, extra.stderr]).toEqual([
      2,
      'tenant:list takes no arguments, got "acme".\nusage: npm run tenant:list\n',
    ]);

    // Two accounts of no tenant, one disabled: marked, and the command says <username>, each to be given its own.
    await testApp.app.users.upsert('late', 'not-a-real-hash');
    expect((await run('user-access.ts', ['disable', 'late'], testApp.databasePath)).code).toBe(0);
    expect((await run('user-access.ts', ['disable', 'bob'], testApp.databasePath)).code).toBe(0);
    const later = await run('tenant-list.ts', [], testApp.databasePath);
    expect(later.stdout).toBe(
      [
        'acme: "Acme"; 2 members, 1 of them disabled (ann)',
        'globex: "Globex Corp"; 2 members, 1 of them disabled (bob)',
        `2 accounts belong to no tenant and cannot sign in: early, late (disabled) (DATABASE_PATH=` +
          `${testApp.databasePath} npm run user:add -- <username> --keep-password --tenant <id>).`,
        `(2 tenants in SQLite ${testApp.databasePath})`,
        '',
      ].join('\n'),
    );

    // A tenant whose only member is disabled: "1 member, 1 of them disabled" counted a group of one.
    await testApp.app.tenants.save({ id: 'initech', name: 'Initech' });
    expect(
      (await run('user-add.ts', ['late', '--keep-password', '--tenant', 'initech'], testApp.databasePath)).code,
    ).toBe(0);
    const single = await run('tenant-list.ts', [], testApp.databasePath);
    expect(single.stdout).toContain('\ninitech: "Initech"; 1 member, disabled (late)\n');
  });
});
