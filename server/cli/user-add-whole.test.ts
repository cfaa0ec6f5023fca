import { sql } from 'kysely';
import { describeWithCommand } from '../../testing/describe-with-command';
import { compileServerCommands, type CompiledServerCommands } from '../../testing/server/compiled-server-commands';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import type { App } from '../app';

jest.setTimeout(90_000);

// The commands compiled once, run as their npm scripts run them: node starts them in a fraction of tsx's time, and
// this file starts them fourteen times, half on PostgreSQL.
let commands: CompiledServerCommands;
beforeAll(async () => {
  commands = await compileServerCommands();
});
afterAll(() => commands?.remove());

const PASSWORD = 'ann-password-1234';
/** A new account given a role, a grant and two tenants, the second with a role of its own. */
const NEW_ANN = ['ann', '--role', 'viewer', '--tenant', 'acme', '--tenant', 'globex', '--role', 'operator'];
const NEW_ANN_WITH_GRANT = [...NEW_ANN, '--permission', 'records:write'];

/** Inserting a membership of globex fails, as the database does when something goes wrong after the account is made. */
async function failMembershipsOfGlobex(app: App): Promise<void> {
  if (app.storage.kind === 'sqlite') {
    await sql`CREATE TRIGGER fail_globex BEFORE INSERT ON memberships WHEN NEW.tenant_id = 'globex'
      BEGIN SELECT RAISE(ABORT, 'no membership of globex today'); END`.execute(app.storage.db);
    return;
  }
  await sql`CREATE FUNCTION fail_globex() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'no membership of globex today'; END $$`.execute(app.storage.db);
  await sql`CREATE TRIGGER fail_globex BEFORE INSERT ON memberships FOR EACH ROW WHEN (NEW.tenant_id = 'globex')
      EXECUTE FUNCTION fail_globex()`.execute(app.storage.db);
}

/** The suite, on the database `open` gives (and the environment that points a command at it). */
function wholeOrNothing(open: () => Promise<{ testApp: TestApp; env: NodeJS.ProcessEnv }>): void {
  let testApp: TestApp;
  let app: App;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    ({ testApp, env } = await open());
    app = testApp.app;
    await app.tenants.save({ id: 'acme', name: 'Acme' });
    await app.tenants.save({ id: 'globex', name: 'Globex' });
  });
  afterEach(() => testApp.close());

  it('makes a new account with its role, grants and tenants at once: a failure in between leaves no account', async () => {
    await failMembershipsOfGlobex(app);
    const failed = await commands.run('user-add.ts', NEW_ANN_WITH_GRANT, env, `${PASSWORD}\n`);
    expect([failed.code, failed.stdout]).toEqual([1, '']);
    expect(failed.stderr).toContain('no membership of globex today');
    // Made apart, the account stayed, of no tenant, with no role or grant: run again, it was "changed", not made.
    expect(await app.users.findByUsername('ann')).toBeUndefined();
    expect(await app.users.count()).toBe(0);
  });

  describeWithCommand(
    'script',
    ['--version'],
    'bsdutils',
  )('on a terminal', () => {
    it('refuses a new account whose tenant is removed while its password is typed, making nothing', async () => {
      const terminal = commands.inTerminal('user-add.ts', NEW_ANN, env);
      await terminal.waitFor('Password for the new account "ann"');
      const removed = await commands.run('tenant-remove.ts', ['globex', '--yes'], env);
      expect([removed.code, removed.stderr]).toEqual([0, '']);
      terminal.type(`${PASSWORD}\r`);
      await terminal.waitFor('Repeat the password');
      terminal.type(`${PASSWORD}\r`);
      await terminal.waitFor('Nothing was changed.');
      terminal.end();
      expect(await terminal.closed).toBe(1);
      expect(terminal.output()).toContain('Unknown tenant "globex". Tenants: acme. Nothing was changed.');
      expect(await app.users.findByUsername('ann')).toBeUndefined();
    });

    it('changes nothing when the account is made, or removed, by another command while its password is typed', async () => {
      const adding = commands.inTerminal('user-add.ts', NEW_ANN, env);
      await adding.waitFor('Password for the new account "ann"');
      const other = await commands.run('user-add.ts', ['ann', '--tenant', 'acme'], env, 'other-password-123\n');
      expect(other.code).toBe(0);
      const generation = await app.users.passwordGeneration('ann');
      adding.type(`${PASSWORD}\r`);
      await adding.waitFor('Repeat the password');
      adding.type(`${PASSWORD}\r`);
      await adding.waitFor('Nothing was changed.');
      adding.end();
      expect(await adding.closed).toBe(1);
      expect(adding.output()).toContain('An account "ann" was made in ');
      // The other command's account stands as it made it: its password, its one tenant.
      expect(await app.users.passwordGeneration('ann')).toBe(generation);
      const ann = (await app.users.findByUsername('ann'))!;
      expect((await app.tenants.tenantsOf(ann.id)).map((tenant) => tenant.id)).toEqual(['acme']);

      const resetting = commands.inTerminal('user-add.ts', ['ann'], env);
      await resetting.waitFor('New password for "ann"');
      expect((await commands.run('user-remove.ts', ['ann', '--yes'], env)).code).toBe(0);
      resetting.type(`${PASSWORD}\r`);
      await resetting.waitFor('Repeat the password');
      resetting.type(`${PASSWORD}\r`);
      await resetting.waitFor('Nothing was changed.');
      resetting.end();
      expect(await resetting.closed).toBe(1);
      expect(resetting.output()).toContain('The account "ann" was removed from ');
      expect(resetting.output()).not.toContain('Set a new password');
    });
  });
}

describe('npm run user:add makes a new account whole or not at all (SQLite)', () => {
  wholeOrNothing(async () => {
    const testApp = await createTestApp();
    return { testApp, env: { DATABASE_PATH: testApp.databasePath, DATABASE_URL: '' } };
  });
});

describeWithPostgres()('npm run user:add makes a new account whole or not at all (PostgreSQL)', () => {
  const databases = usePostgresDatabases('user_add_whole', { poolSize: 3, statementTimeoutMs: 5000 });
  wholeOrNothing(async () => {
    const storage = await databases.create();
    return { testApp: await createTestApp({ storage }), env: { DATABASE_URL: storage.url } };
  });
});
