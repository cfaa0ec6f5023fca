import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { MePayload } from '../../shared';
import { PASSWORD_MIN_LENGTH } from '../auth/username';
import { describeWithCommand } from '../../testing/describe-with-command';
import { addUser, createDemoApp, DEMO_PASSWORD, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { makeTempDir } from '../../testing/temp-dir';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';
import { serverCommandInTerminal } from '../../testing/server/server-command-in-terminal';

/**
 * `npm run user:add -- ...args` as the script runs it (tsx), with `input` piped to stdin, on the SQLite file at
 * `database`, or on the environment's database given as `{ DATABASE_URL }`.
 */
function runUserAdd(database: string | NodeJS.ProcessEnv, args: string[], input: string): Promise<CommandRun> {
  return runServerCommand(
    'user-add.ts',
    args,
    typeof database === 'string' ? { DATABASE_PATH: database } : database,
    input,
  );
}

async function signIn(testApp: TestApp, username: string, password: string) {
  return request(testApp.app.handler).post('/login').send({ username, password });
}

jest.setTimeout(60_000);

describe('npm run user:add', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createDemoApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('adds an account from a piped password; it can sign in and belongs to every tenant', async () => {
    const run = await runUserAdd(testApp.databasePath, ['editor'], 'editor-password-123\n');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Created the staff account "editor" (tenants: acme, globex; role: none (an editor))');
    // Every tenant, of two: said, with the command that keeps it to some.
    expect(run.stdout).toContain(
      `It joined every tenant, as no --tenant was given: DATABASE_PATH=${testApp.databasePath} npm run user:add -- ` +
        'editor --keep-password --tenant <id> keeps it to those named.',
    );
    expect(run.stdout).not.toContain('editor-password-123');

    const response = await signIn(testApp, 'editor', 'editor-password-123');
    expect(response.status).toBe(200);
    expect((response.body as MePayload).user.tenants.map((tenant) => tenant.id)).toEqual(['acme', 'globex']);
  });

  it('refuses a password under 12 characters with a clear message and creates nothing', async () => {
    const run = await runUserAdd(testApp.databasePath, ['shorty'], 'short-pw\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`too short: use at least ${PASSWORD_MIN_LENGTH} characters`);
    expect(await testApp.app.users.findByUsername('shorty')).toBeUndefined();
  });

  it('says that no password came when stdin is empty (docker exec without -i), and creates nothing', async () => {
    const run = await runUserAdd(testApp.databasePath, ['silent'], '');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No password came on stdin: pipe one');
    expect(await testApp.app.users.findByUsername('silent')).toBeUndefined();
  });

  it('resets the password of an existing account: the old one stops working', async () => {
    const run = await runUserAdd(testApp.databasePath, ['admin'], 'a-brand-new-admin-password\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Set a new password for "admin"');
    expect((await signIn(testApp, 'admin', DEMO_PASSWORD)).status).toBe(401);
    expect((await signIn(testApp, 'admin', 'a-brand-new-admin-password')).status).toBe(200);
  });

  it('limits the account to the tenants given with --tenant', async () => {
    const run = await runUserAdd(
      testApp.databasePath,
      ['globex-only', '--tenant', 'globex'],
      'globex-only-password\r\n',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('It joined every tenant');
    const response = await signIn(testApp, 'globex-only', 'globex-only-password');
    expect((response.body as MePayload).user.tenants).toEqual([{ id: 'globex', name: 'Globex' }]);
    expect((response.body as MePayload).user.currentTenant).toBe('globex');
  });

  it('refuses an unknown tenant, listing the existing ones', async () => {
    const run = await runUserAdd(testApp.databasePath, ['someone', '--tenant=initech'], 'someone-password-1\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Unknown tenant "initech". Tenants: acme, globex.');
    expect(await testApp.app.users.findByUsername('someone')).toBeUndefined();
    // Two of them are tenants, not one tenant of two names.
    const two = await runUserAdd(testApp.databasePath, ['someone', '--tenant=initech', '--tenant=umbrella'], '');
    expect([two.code, two.stderr]).toEqual([1, 'Unknown tenants "initech", "umbrella". Tenants: acme, globex.\n']);
  });

  it('prints the usage for a missing or bad username', async () => {
    for (const args of [[], ['has space'], ['a', 'b'], ['x', '--bogus']]) {
      const run = await runUserAdd(testApp.databasePath, args, '');
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('usage: npm run user:add -- <username> [--role viewer|editor|operator|none]');
    }
  });
});

describe('npm run user:add on an account that is signed in', () => {
  const PASSWORD = 'pat-password-1234';
  let testApp: TestApp;

  beforeEach(async () => {
    testApp = await createDemoApp();
    await addUser(testApp.app, 'pat', PASSWORD, ['acme', 'globex']);
  });

  afterEach(async () => {
    await testApp.close();
  });

  async function me(agent: request.Agent): Promise<{ status: number; roles?: string[] }> {
    const response = await agent.get('/me');
    return response.status === 200
      ? { status: 200, roles: (response.body as MePayload).user.roles ?? [] }
      : { status: response.status };
  }

  it('changes the role with the same password: the hash is kept, the session stays, the role counts at once', async () => {
    const pat = await signedInAgent(testApp.app, 'pat', PASSWORD);
    const before = await testApp.app.users.findCredentials('pat');
    expect(await me(pat)).toEqual({ status: 200, roles: [] });

    const run = await runUserAdd(testApp.databasePath, ['pat', '--role', 'viewer'], `${PASSWORD}\n`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(await me(pat)).toEqual({ status: 200, roles: ['viewer'] });
    expect((await testApp.app.users.findCredentials('pat'))?.passwordHash).toBe(before?.passwordHash);
    expect(run.stdout).toContain('Kept the password of "pat" (tenants: acme, globex; role: viewer)');
    expect(run.stdout).toContain('Its open sessions stay signed in.');
    // The viewer's next save is refused for its role, not sent to the sign-in page.
    const save = await pat.put('/api/resources/articles/records/6').send({ title: 'x' });
    expect(save.status).toBe(403);
  });

  it('changes the role with --keep-password without reading a password; the session stays', async () => {
    const pat = await signedInAgent(testApp.app, 'pat', PASSWORD);
    const run = await runUserAdd(testApp.databasePath, ['pat', '--keep-password', '--role', 'operator'], '');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Kept the password of "pat" (tenants: acme, globex; role: operator)');
    expect(await me(pat)).toEqual({ status: 200, roles: ['operator'] });
    // Its role kept when not given: said as it is, not left out (which read as no role).
    const granted = await runUserAdd(
      testApp.databasePath,
      ['pat', '--keep-password', '--permission', 'releases:manage'],
      '',
    );
    expect(granted.stdout).toContain(
      'Kept the password of "pat" (tenants: acme, globex; role: operator; granted: releases:manage)',
    );
    expect((await signIn(testApp, 'pat', PASSWORD)).status).toBe(200);
  });

  it('refuses --keep-password for an account that does not exist, and creates nothing', async () => {
    const run = await runUserAdd(testApp.databasePath, ['nobody', '--keep-password', '--role', 'viewer'], '');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('There is no account "nobody"');
    expect(run.stderr).toContain('--keep-password changes existing accounts only. Nothing was changed.');
    expect(await testApp.app.users.findByUsername('nobody')).toBeUndefined();
  });

  it('a different password replaces the hash and ends the session, and says so', async () => {
    const pat = await signedInAgent(testApp.app, 'pat', PASSWORD);
    const run = await runUserAdd(testApp.databasePath, ['pat', '--role', 'viewer'], 'another-pat-password\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Set a new password for "pat" (tenants: acme, globex; role: viewer)');
    expect(run.stdout).toContain(
      'Its open sessions end at their next request; its failed sign-ins are no longer counted against it',
    );
    expect(await me(pat)).toEqual({ status: 401 });
    expect((await signIn(testApp, 'pat', PASSWORD)).status).toBe(401);
    expect((await signIn(testApp, 'pat', 'another-pat-password')).status).toBe(200);
  });
});

describe('npm run user:add before the first start', () => {
  it('creates the database; the account joins the demo tenants when the server first starts', async () => {
    const dir = makeTempDir();
    const run = await runUserAdd(path.join(dir.path, 'app.db'), ['early'], 'early-bird-password\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no tenant yet');

    const started = await createDemoApp({ dir });
    try {
      const response = await signIn(started, 'early', 'early-bird-password');
      expect(response.status).toBe(200);
      expect((response.body as MePayload).user.tenants.map((tenant) => tenant.id)).toEqual(['acme', 'globex']);
    } finally {
      await started.close();
    }
  });
});

/** `npm run user:add -- <username>` on a terminal (`script` gives it one): what it wrote, and a way to type. */
function userAddInTerminal(databasePath: string, username: string) {
  return serverCommandInTerminal('user-add.ts', [username], { DATABASE_PATH: databasePath });
}

describeWithCommand(
  'script',
  ['--version'],
  'bsdutils',
)('npm run user:add on a terminal', () => {
  it('asks twice without echoing the password', async () => {
    const testApp = await createDemoApp();
    try {
      const terminal = userAddInTerminal(testApp.databasePath, 'ttyuser');
      await terminal.waitFor('Password for the new account "ttyuser"');
      terminal.type('terminal-password-1\r');
      await terminal.waitFor('Repeat the password');
      terminal.type('terminal-password-1\r');
      await terminal.waitFor('Created the staff account "ttyuser"');
      terminal.end();
      expect(await terminal.closed).toBe(0);
      expect(terminal.output()).not.toContain('terminal-password-1');
      expect((await signIn(testApp, 'ttyuser', 'terminal-password-1')).status).toBe(200);
    } finally {
      await testApp.close();
    }
  });

  it('keeps what is typed ahead (both lines pasted at once) for the second question', async () => {
    const testApp = await createDemoApp();
    try {
      const terminal = userAddInTerminal(testApp.databasePath, 'paster');
      await terminal.waitFor('Password for the new account "paster"');
      terminal.type('pasted-password-12\rpasted-password-12\r');
      await terminal.waitFor('Created the staff account "paster"');
      terminal.end();
      expect(await terminal.closed).toBe(0);
      expect((await signIn(testApp, 'paster', 'pasted-password-12')).status).toBe(200);
    } finally {
      await testApp.close();
    }
  });
});

describeWithPostgres()('npm run user:add with DATABASE_URL', () => {
  let server: PostgresServer;
  let url: string;
  let testApp: TestApp;
  const folder = makeTempDir('slots-user-add-pg-');

  beforeAll(async () => {
    server = await PostgresServer.start();
    url = await server.createDatabase('user_add');
    testApp = await createDemoApp({ storage: { kind: 'postgres', url, poolSize: 2, statementTimeoutMs: 5000 } });
  });

  afterAll(async () => {
    await testApp.close();
    await server.remove();
    folder.remove();
  });

  it('adds an account in PostgreSQL, from a folder with no database file, and the server signs it in', async () => {
    const run = await runUserAdd(
      { DATABASE_URL: url, DATABASE_PATH: `${folder.path}/app.db` },
      ['editor'],
      'editor-password-123\n',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `Created the staff account "editor" (tenants: acme, globex; role: none (an editor)) in ` +
        `${testApp.app.storage.displayName}.`,
    );
    expect(fs.readdirSync(folder.path)).toEqual([]);
    expect((await signIn(testApp, 'editor', 'editor-password-123')).status).toBe(200);
  });
});
