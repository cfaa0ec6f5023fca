import { OPERATOR_ROLE } from '../../shared';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';
import { addUser, createTestApp, type TestApp } from '../../testing/server/test-app';
import type { App } from '../app';

jest.setTimeout(90_000);

const PASSWORD = 'member-password-123';
const BOTH = 'releases:manage and placements:edit (manage the releases of remotes and edit the placements';

/** ann, an operator of acme and globex, the only account able to administer; bob, an editor of acme. */
async function seed(app: App): Promise<void> {
  await addUser(app, 'ann', PASSWORD, ['acme', 'globex']);
  await app.users.setRole('ann', OPERATOR_ROLE);
  await addUser(app, 'bob', PASSWORD, ['acme']);
}

/**
 * The refusal every account command says, as user:remove does (lastAdministratorMessage), with `otherWayOut` when the
 * command has one of its own: nothing was changed, and nothing else is said.
 */
function expectRefused(run: CommandRun, permissions: string, otherWayOut?: string): void {
  expect([run.code, run.stdout]).toEqual([1, '']);
  const other = otherWayOut === undefined ? '' : `, ${escape(otherWayOut)}`;
  expect(run.stderr).toMatch(
    new RegExp(
      `^Refused: "ann" is the last account able to use ${escape(permissions)}, for every tenant\\), and no account ` +
        'could after this\\. To go on, give another account the operator role first \\(.*npm run user:add -- ' +
        `<username> --keep-password --role operator\\)${other}\\. Nothing was changed\\.\\n$`,
    ),
  );
}

/** What tenant:add adds to the way out: the operator by memberships is none in a tenant it is no member of. */
const OPERATOR_OF_ITS_OWN =
  "or the same to an account that is an operator by its memberships' roles alone (a new tenant has no members yet: " +
  "an account's own role applies there)";

/** ann an operator by her memberships' roles alone, of every tenant there is: the only account able to administer. */
async function makeAnnOperatorByMemberships(app: App): Promise<void> {
  const ann = (await app.users.findByUsername('ann'))!;
  await app.tenants.setMemberships(ann.id, [
    { tenant: 'acme', role: OPERATOR_ROLE },
    { tenant: 'globex', role: OPERATOR_ROLE },
  ]);
  await app.users.setRole('ann', null);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The suite, on the database `open` gives (and the environment that points a command at it). */
function refusals(open: () => Promise<{ testApp: TestApp; env: NodeJS.ProcessEnv }>): void {
  let testApp: TestApp;
  let app: App;
  let run: (script: string, args: string[], input?: string) => Promise<CommandRun>;

  beforeEach(async () => {
    const opened = await open();
    testApp = opened.testApp;
    app = testApp.app;
    run = (script, args, input) => runServerCommand(script, args, opened.env, input);
    await seed(app);
  });
  afterEach(() => testApp.close());

  it('user:disable refuses the last administrator; an account that administers nothing, or no roles in use, as before', async () => {
    expectRefused(await run('user-access.ts', ['disable', 'ANN']), BOTH);
    expect(await app.users.isDisabled('ann')).toBe(false);
    expect((await run('user-access.ts', ['disable', 'bob'])).code).toBe(0);
    // Once no account holds a role, nobody administers: nothing is refused, as before roles existed.
    await app.users.setRole('ann', null);
    const disabled = await run('user-access.ts', ['disable', 'ann']);
    expect([disabled.code, disabled.stderr]).toEqual([0, '']);
    expect(await app.users.isDisabled('ann')).toBe(true);
  });

  it('user:add refuses demoting the last administrator, by its own role or a membership role, whole', async () => {
    const generation = await app.users.passwordGeneration('ann');
    expectRefused(await run('user-add.ts', ['ann', '--keep-password', '--role', 'none']), BOTH);
    const viewerInAcme = ['ann', '--keep-password', '--tenant', 'acme', '--role', 'viewer', '--tenant', 'globex'];
    expectRefused(await run('user-add.ts', viewerInAcme), BOTH);
    // Refused before its password is asked, so a new one piped in is not set either.
    expectRefused(await run('user-add.ts', ['ann', '--role', 'viewer'], 'ann-new-password-456\n'), BOTH);
    const ann = (await app.users.findByUsername('ann'))!;
    expect(ann.roles).toEqual([OPERATOR_ROLE]);
    expect([...(await app.tenants.membershipsOf(ann.id)).roles]).toEqual([]);
    expect(await app.users.passwordGeneration('ann')).toBe(generation);

    // The change is checked as a whole: its own role goes while both memberships make it an operator.
    const args = [
      '--role',
      'none',
      '--tenant',
      'acme',
      '--role',
      'operator',
      '--tenant',
      'globex',
      '--role',
      'operator',
    ];
    const moved = await run('user-add.ts', ['ann', '--keep-password', ...args]);
    expect([moved.code, moved.stderr]).toEqual([0, '']);
    expect((await app.users.findByUsername('ann'))?.roles).toEqual([]);
  });

  it('user:permission revoke refuses the last administrator grant; revoking it once another holds it goes', async () => {
    await app.users.setRole('ann', null);
    await app.users.grant('ann', ['releases:manage', 'placements:edit']);
    expectRefused(
      await run('user-permission.ts', ['revoke', 'ann', 'placements:edit']),
      'placements:edit (edit the placements',
    );
    expect((await app.users.findByUsername('ann'))?.grantedPermissions).toEqual(['releases:manage', 'placements:edit']);
    // Refused, it says the refusal alone, not first that a permission named with it was never granted.
    expectRefused(
      await run('user-permission.ts', ['revoke', 'ann', 'records:write', 'placements:edit']),
      'placements:edit (edit the placements',
    );
    // A grant reaches every tenant: bob, of acme alone, can then edit the placements, and ann's grant may go.
    expect((await run('user-permission.ts', ['grant', 'bob', 'placements:edit'])).code).toBe(0);
    const revoked = await run('user-permission.ts', ['revoke', 'ann', 'placements:edit', 'records:write']);
    expect([revoked.code, revoked.stderr]).toEqual([0, '']);
    expect(revoked.stdout).toMatch(
      /^"ann" had no grant of records:write: nothing to revoke there \(a role may give it\)\.\n"ann": role none \(an editor\); granted: releases:manage\n/,
    );
    expect((await app.users.findByUsername('ann'))?.grantedPermissions).toEqual(['releases:manage']);
  });

  it('tenant:add refuses a new tenant when the last administrator is an operator by its memberships alone', async () => {
    await makeAnnOperatorByMemberships(app);
    expectRefused(await run('tenant-add.ts', ['initech']), BOTH, OPERATOR_OF_ITS_OWN);
    expect(await app.tenants.get('initech')).toBeUndefined();
    // Renaming a tenant takes nobody's access away.
    const renamed = await run('tenant-add.ts', ['acme', '--name', 'Acme Corp']);
    expect([renamed.code, renamed.stderr]).toEqual([0, '']);
    // An operator role of her own reaches the new tenant too: it may then be made.
    await app.users.setRole('ann', OPERATOR_ROLE);
    const created = await run('tenant-add.ts', ['initech']);
    expect([created.code, created.stderr]).toEqual([0, '']);
    expect(await app.tenants.get('initech')).toEqual({ id: 'initech', name: 'initech' });
  });

  it('of a new tenant and the demotion of the other operator, racing, one is refused', async () => {
    await makeAnnOperatorByMemberships(app);
    await addUser(app, 'zoe', PASSWORD, ['acme', 'globex']);
    await app.users.setRole('zoe', OPERATOR_ROLE);
    // Each alone leaves an administrator (zoe, or ann in the tenants there are); both together leave none.
    const runs = await Promise.all([
      run('tenant-add.ts', ['initech']),
      run('user-add.ts', ['zoe', '--keep-password', '--role', 'viewer']),
    ]);
    expect(runs.map((each) => each.code).sort()).toEqual([0, 1]);
    expect(runs.find((each) => each.code === 1)?.stderr).toMatch(/^Refused: "(ann|zoe)" is the last account able /);
    const created = (await app.tenants.get('initech')) !== undefined;
    const zoe = (await app.users.findByUsername('zoe'))?.roles;
    expect([created, zoe]).toEqual(created ? [true, [OPERATOR_ROLE]] : [false, ['viewer']]);
  });

  it('of two operators disabled at once, by two commands racing, one is refused', async () => {
    await addUser(app, 'zoe', PASSWORD, ['acme', 'globex']);
    await app.users.setRole('zoe', OPERATOR_ROLE);
    const runs = await Promise.all([
      run('user-access.ts', ['disable', 'ann']),
      run('user-add.ts', ['zoe', '--keep-password', '--role', 'viewer']),
    ]);
    expect(runs.map((each) => each.code).sort()).toEqual([0, 1]);
    const refused = runs.find((each) => each.code === 1)!;
    expect(refused.stderr).toMatch(/^Refused: "(ann|zoe)" is the last account able to use .* Nothing was changed\.\n$/);
    const ann = await app.users.isDisabled('ann');
    const zoe = (await app.users.findByUsername('zoe'))?.roles;
    // Exactly one of them changed: the other still administers.
    expect([ann, zoe]).toEqual(ann ? [true, [OPERATOR_ROLE]] : [false, ['viewer']]);
  });
}

describe('account commands refuse taking away the last administrator (SQLite)', () => {
  refusals(async () => {
    const testApp = await createTestApp();
    return { testApp, env: { DATABASE_PATH: testApp.databasePath, DATABASE_URL: '' } };
  });
});

describeWithPostgres()('account commands refuse taking away the last administrator (PostgreSQL)', () => {
  const databases = usePostgresDatabases('last_administrator', { poolSize: 3, statementTimeoutMs: 5000 });
  refusals(async () => {
    const storage = await databases.create();
    return { testApp: await createTestApp({ storage }), env: { DATABASE_URL: storage.url } };
  });
});
