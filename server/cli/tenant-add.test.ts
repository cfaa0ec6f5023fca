import { existsSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { compileServerCommands, type CompiledServerCommands } from '../../testing/server/compiled-server-commands';

jest.setTimeout(60_000);

describe('npm run tenant:add', () => {
  let dir: TempDir;
  // The commands compiled once, run as their npm scripts run them: node starts them in a fraction of tsx's time, and
  // this file starts them some thirty times.
  let commands: CompiledServerCommands;
  beforeAll(async () => {
    commands = await compileServerCommands();
  });
  afterAll(() => commands?.remove());
  beforeEach(() => {
    dir = makeTempDir('slots-tenant-add-');
  });
  afterEach(() => dir.remove());

  it('creates a tenant the next user:add can put an account in, and renames it', async () => {
    const env = { DATABASE_PATH: path.join(dir.path, 'app.db') };
    // Before any tenant, an account cannot sign in: user:add says how to make one.
    const early = await commands.run('user-add.ts', ['ada'], env, 'ada-password-1234\n');
    expect(early.code).toBe(0);
    // With this database's path before each command it prints: pasted as printed, one works on the same file.
    const here = `DATABASE_PATH=${env.DATABASE_PATH}`;
    expect(early.stdout).toContain(
      `no tenant yet, so it cannot sign in: create one with ${here} npm run tenant:add -- <id>, then ${here} npm run ` +
        'user:add -- ada --keep-password --tenant <id>',
    );

    const created = await commands.run('tenant-add.ts', ['acme', '--name', 'Acme Corp'], env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Created tenant "acme" (Acme Corp)');
    expect(created.stdout).toContain(`${here} npm run user:add -- <username> --tenant acme`);

    const joined = await commands.run('user-add.ts', ['ada', '--keep-password', '--tenant', 'acme'], env);
    expect(joined.code).toBe(0);
    expect(joined.stdout).toContain('(tenants: acme; role: none (an editor))');

    const renamed = await commands.run('tenant-add.ts', ['acme', '--name=Acme'], env);
    expect(renamed.stdout).toContain('Renamed tenant "acme" (Acme)');
    // Another tenant whose id differs in case only is refused: one was meant.
    const alike = await commands.run('tenant-add.ts', ['ACME'], env);
    expect([alike.code, alike.stderr]).toEqual([1, expect.stringContaining('There is a tenant "acme" (Acme) in ')]);
    expect(alike.stderr).toContain(': "ACME" differs from it in case only. Use "acme", or an id of other letters.');
    const kept = await commands.run('tenant-add.ts', ['acme'], env);
    expect(kept.stdout).toContain('Kept tenant "acme" (Acme)');
  });

  it('takes any id as given, an object property name too, and user:add puts accounts in it or says which was meant', async () => {
    const env = { DATABASE_PATH: path.join(dir.path, 'app.db') };
    for (const id of ['constructor', 'toString', 'valueOf']) {
      expect((await commands.run('tenant-add.ts', [id], env)).code).toBe(0);
    }
    // Read from a plain object, `constructor` had a role (Object) and the command failed with an account half made.
    const added = await commands.run(
      'user-add.ts',
      ['ada', '--tenant', 'constructor', '--tenant', 'toString', '--role', 'viewer', '--tenant', 'valueOf'],
      env,
      'ada-password-1234\n',
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('(tenants: constructor, toString (viewer), valueOf; role: none (an editor))');

    const cased = await commands.run('user-add.ts', ['bob', '--tenant', 'CONSTRUCTOR'], env, 'bob-password-1234\n');
    expect([cased.code, cased.stderr]).toEqual([
      1,
      'Unknown tenant "CONSTRUCTOR" (ids are exact: "constructor"?). Tenants: constructor, toString, valueOf.\n',
    ]);
  });

  it("refuses a name with control characters, too long, or already another tenant's, changing nothing", async () => {
    const env = { DATABASE_PATH: path.join(dir.path, 'app.db') };
    expect((await commands.run('tenant-add.ts', ['globex', '--name', 'Globex'], env)).code).toBe(0);
    for (const name of ['Evil\nName', 'Red\u001b[31m', 'abc\u202Edcba', 'x'.repeat(101)]) {
      const run = await commands.run('tenant-add.ts', ['initech', '--name', name], env);
      expect([name, run.code]).toEqual([name, 2]);
      expect(run.stderr).toMatch(/^A tenant name (cannot hold control characters|is at most 100 characters long)/);
    }
    const twin = await commands.run('tenant-add.ts', ['globex2', '--name', 'globex '], env);
    expect([twin.code, twin.stderr]).toEqual([1, expect.stringContaining('Tenant "globex" in ')]);
    expect(twin.stderr).toContain(
      'is already named "Globex": staff tell tenants apart by their names. Give "globex2" another with --name.',
    );
    const list = await commands.run('tenant-add.ts', [], env);
    expect(list.stderr).toContain('Tenants in ');
    expect(list.stderr).toContain(': globex (Globex).');
    // Renaming a tenant to its own name, or keeping it, is no clash.
    expect((await commands.run('tenant-add.ts', ['globex', '--name', 'Globex'], env)).code).toBe(0);
    expect((await commands.run('tenant-add.ts', ['initech', '--name', 'Initech — "the" one'], env)).code).toBe(0);
  });

  it('creates no database for a mistyped command', async () => {
    const database = path.join(dir.path, 'app.db');
    const run = await commands.run('tenant-add.ts', ['has space'], { DATABASE_PATH: database });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`No database at SQLite ${database} yet.`);
    expect(existsSync(database)).toBe(false);
  });

  it('refuses a bad id or a missing name with the usage and the tenants there are, changing nothing', async () => {
    const env = { DATABASE_PATH: path.join(dir.path, 'app.db') };
    await commands.run('tenant-add.ts', ['globex'], env);
    for (const args of [['has space'], ['acme', '--name'], [], ['a', 'b']]) {
      const run = await commands.run('tenant-add.ts', args, env);
      expect([args, run.code]).toEqual([args, 2]);
      expect(run.stderr).toContain('usage: npm run tenant:add -- <id> [--name "<Name>"]');
      expect(run.stderr).toContain('Tenants in ');
      expect(run.stderr).toContain('globex (globex).');
    }
  });
});
