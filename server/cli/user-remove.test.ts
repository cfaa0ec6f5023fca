import http from 'node:http';
import request from 'supertest';
import { OPERATOR_ROLE } from '../../shared';
import { describeWithCommand } from '../../testing/describe-with-command';
import { compileServerCommands, type CompiledServerCommands } from '../../testing/server/compiled-server-commands';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import {
  addUser,
  closeTwoHosts,
  createTestApp,
  createTwoHosts,
  sessionCookieOf,
  type TestApp,
} from '../../testing/server/test-app';
import type { App } from '../app';

jest.setTimeout(90_000);

// The commands compiled once, run as their npm scripts run them: node starts them in a fraction of tsx's time, and
// this file starts them fourteen times.
let commands: CompiledServerCommands;
beforeAll(async () => {
  commands = await compileServerCommands();
});
afterAll(() => commands?.remove());

const PASSWORD = 'member-password-123';

/** An app listening as a host behind a balancer is, on a port the system gives: tests beside it never meet on one. */
function listen(app: App): Promise<http.Server> {
  const server = http.createServer(app.handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Signs in over HTTP; the session cookie. */
async function signIn(server: http.Server, username: string): Promise<string> {
  const response = await request(server).post('/login').send({ username, password: PASSWORD });
  expect(response.status).toBe(200);
  return sessionCookieOf(response) as string;
}

async function meStatus(server: http.Server, cookie: string): Promise<number> {
  return (await request(server).get('/me').set('Cookie', cookie)).status;
}

/**
 * The accounts of a removal: ann (an operator of acme and globex, with a grant, an idempotency key and history in
 * the audit trails), zoe (an operator too, so ann is not the last) and bob (an editor of acme).
 */
async function seed(app: App): Promise<void> {
  await addUser(app, 'ann', PASSWORD, ['acme', 'globex']);
  await app.users.setRole('ann', OPERATOR_ROLE);
  await app.users.grant('ann', ['placements:edit']);
  await addUser(app, 'zoe', PASSWORD, ['acme']);
  await app.users.setRole('zoe', OPERATOR_ROLE);
  await addUser(app, 'bob', PASSWORD, ['acme']);
  const ann = await app.users.findByUsername('ann');
  const db = app.storage.db;
  await db
    .insertInto('record_creations')
    .values({
      tenant_id: 'acme',
      resource: 'notes',
      user_id: ann?.id as number,
      key: 'retry-key',
      request_hash: 'x',
      record_id: null,
      created_at: Date.now(),
    })
    .execute();
  await db
    .insertInto('remote_audit')
    .values({ remote: 'team_records', action: 'activate', actor: 'ann', at: 1, before: 'null', after: '"1.0.0"' })
    .execute();
  await db
    .insertInto('placement_audit')
    .values({ action: 'publish', actor: 'ann', at: 2, revision: 1, before: 'null', after: '{}' })
    .execute();
  await db
    .insertInto('placement_revisions')
    .values({ number: 1, document: '{}', action: 'publish', restored: null, published_by: 'ann', published_at: 2 })
    .execute();
}

/** What the database keeps of ann once removed: nothing of her own, her history whole. */
async function expectRemovedWithHistoryKept(app: App): Promise<void> {
  const db = app.storage.db;
  expect(await app.users.findByUsername('ann')).toBeUndefined();
  const ownRows = await Promise.all([
    db.selectFrom('memberships').select('tenant_id').where('role', 'is', null).execute(),
    db.selectFrom('user_permissions').selectAll().execute(),
    db.selectFrom('record_creations').selectAll().execute(),
  ]);
  expect(ownRows.map((rows) => rows.length)).toEqual([2, 0, 0]); // zoe's and bob's memberships only
  expect((await db.selectFrom('remote_audit').select('actor').execute()).map((row) => row.actor)).toEqual(['ann']);
  expect((await db.selectFrom('placement_audit').select('actor').execute()).map((row) => row.actor)).toEqual(['ann']);
  expect(
    (await db.selectFrom('placement_revisions').select('published_by').execute()).map((row) => row.published_by),
  ).toEqual(['ann']);
}

describe('npm run user:remove', () => {
  it('removes the account and what is its alone, ends its sessions on every host at once, keeps its history', async () => {
    const hosts = await createTwoHosts(createTestApp);
    const servers = [await listen(hosts[0].app), await listen(hosts[1].app)] as const;
    try {
      await seed(hosts[0].app);
      const ann = await signIn(servers[0], 'ann');
      const bob = await signIn(servers[1], 'bob');
      for (const server of servers) expect(await meStatus(server, ann)).toBe(200);

      const run = await commands.run('user-remove.ts', ['ann', '--yes'], {
        DATABASE_PATH: hosts[0].databasePath,
        DATABASE_URL: '',
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(
        `Removed the account "ann" (tenants: acme, globex; grants: placements:edit; an idempotency key of a record ` +
          `creation) from SQLite ${hosts[0].databasePath}. Its sessions in the database ended with it. REDIS_URL is not ` +
          'set here: if the servers keep sessions in Redis, its sessions there stay stored until they expire ' +
          "(user:remove deletes them at once when run with the servers' REDIS_URL); either way each is refused at " +
          'its next request, the account being gone. What the audit trails, releases and placement revisions say it ' +
          'did stays, under its name.\n',
      );

      // Its session is refused on both hosts at its very next request; another account's is untouched.
      for (const server of servers) {
        expect(await meStatus(server, ann)).toBe(401);
        expect((await request(server).get('/meta').set('Cookie', ann)).status).toBe(401);
        expect(await meStatus(server, bob)).toBe(200);
      }
      expect((await request(servers[0]).post('/login').send({ username: 'ann', password: PASSWORD })).status).toBe(401);
      await expectRemovedWithHistoryKept(hosts[1].app);
      const listed = await commands.run('user-list.ts', [], { DATABASE_PATH: hosts[0].databasePath });
      expect(listed.stdout).not.toContain('ann');
    } finally {
      await Promise.all(servers.map(close));
      await closeTwoHosts(hosts);
    }
  });

  describe('refuses, changing nothing', () => {
    let testApp: TestApp;
    const run = (args: string[]) =>
      commands.run('user-remove.ts', args, { DATABASE_PATH: testApp.databasePath, DATABASE_URL: '' });

    beforeEach(async () => {
      testApp = await createTestApp();
      await seed(testApp.app);
    });
    afterEach(() => testApp.close());

    it('without a terminal to confirm on and without --yes', async () => {
      const refused = await run(['ann']);
      expect([refused.code, refused.stdout]).toEqual([1, '']);
      expect(refused.stderr).toBe(
        `Refused: there is no terminal to confirm on. Run it in a terminal to be asked, or add --yes ` +
          `(DATABASE_PATH=${testApp.databasePath} npm run user:remove -- ann --yes) to remove without being asked. ` +
          'Nothing was changed.\n',
      );
      expect(await testApp.app.users.findByUsername('ann')).toBeDefined();
    });

    it('an account that is not there, and a command line it does not take', async () => {
      expect(await run(['nobody', '--yes'])).toEqual({
        code: 1,
        stdout: '',
        stderr: `There is no account "nobody" in SQLite ${testApp.databasePath}. Nothing was changed.\n`,
      });
      // Each says what is wrong before the usage.
      for (const [args, said] of [
        [[], 'Give the username.'],
        [['--yes'], 'Give the username.'],
        [['ann', 'bob'], 'Give one username, not 2: "ann", "bob".'],
        [['--force', 'ann'], 'Unknown option --force.'],
      ] as const) {
        const usage = await run([...args]);
        expect([usage.code, usage.stderr]).toEqual([2, `${said}\nusage: npm run user:remove -- <username> [--yes]\n`]);
      }
    });

    it('the last enabled account able to administer (a disabled one does not count), by any letter case', async () => {
      // Only zoe administers besides ann; disabled, she no longer counts.
      expect(await testApp.app.users.setDisabled('zoe', true)).toBe(true);
      const refused = await run(['ANN', '--yes']);
      expect([refused.code, refused.stdout]).toEqual([1, '']);
      expect(refused.stderr).toBe(
        'Refused: "ann" is the last account able to use releases:manage and placements:edit (manage the releases of ' +
          'remotes and edit the placements, for every tenant), and no account could after this. To go on, give ' +
          `another account the operator role first (DATABASE_PATH=${testApp.databasePath} npm run user:add -- <username> ` +
          '--keep-password --role operator). Nothing was changed.\n',
      );
      expect(await testApp.app.users.findByUsername('ann')).toBeDefined();
      // Removing an account that administers nothing is never refused so: bob goes.
      expect((await run(['bob', '--yes'])).code).toBe(0);
      // With zoe back, ann may go (by any letter case, as every account command takes names).
      await testApp.app.users.setDisabled('zoe', false);
      const removed = await run(['ANN', '--yes']);
      expect([removed.code, removed.stderr]).toEqual([0, '']);
      expect(removed.stdout).toMatch(/^Removed the account "ann" /);
    });
  });
});

describeWithCommand(
  'script',
  ['--version'],
  'bsdutils',
)('npm run user:remove on a terminal', () => {
  it('asks first: anything but yes keeps the account, yes removes it', async () => {
    const testApp = await createTestApp();
    try {
      await seed(testApp.app);
      const env = { DATABASE_PATH: testApp.databasePath, DATABASE_URL: '' };
      const declined = commands.inTerminal('user-remove.ts', ['bob'], env);
      await declined.waitFor('Remove the account "bob" (tenants: acme; grants: none) from');
      declined.type('n\r');
      await declined.waitFor('Not removed: the answer was not yes. Nothing was changed.');
      declined.end();
      expect(await declined.closed).toBe(1);
      expect(await testApp.app.users.findByUsername('bob')).toBeDefined();

      const confirmed = commands.inTerminal('user-remove.ts', ['bob'], env);
      await confirmed.waitFor('[y/N]');
      confirmed.type('yes\r');
      await confirmed.waitFor('Removed the account "bob"');
      confirmed.end();
      expect(await confirmed.closed).toBe(0);
      expect(await testApp.app.users.findByUsername('bob')).toBeUndefined();
    } finally {
      await testApp.close();
    }
  });
});

describeWithPostgres()('npm run user:remove with DATABASE_URL', () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await PostgresServer.start();
  }, 60_000);
  afterAll(() => postgres.remove(), 30_000);

  it('removes the account on PostgreSQL: both hosts refuse its session at its next request, history stays', async () => {
    const storage = {
      kind: 'postgres' as const,
      url: await postgres.createDatabase('user_remove'),
      poolSize: 3,
      statementTimeoutMs: 5000,
    };
    const hosts = await createTwoHosts(createTestApp, { storage });
    const servers = [await listen(hosts[0].app), await listen(hosts[1].app)] as const;
    try {
      await seed(hosts[0].app);
      const ann = await signIn(servers[0], 'ann');
      const bob = await signIn(servers[1], 'bob');
      for (const server of servers) expect(await meStatus(server, ann)).toBe(200);

      const run = await commands.run('user-remove.ts', ['ann', '--yes'], { DATABASE_URL: storage.url });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toMatch(
        /^Removed the account "ann" \(tenants: acme, globex; grants: placements:edit; an idempotency key/,
      );

      for (const server of servers) {
        expect(await meStatus(server, ann)).toBe(401);
        expect(await meStatus(server, bob)).toBe(200);
      }
      await expectRemovedWithHistoryKept(hosts[1].app);
    } finally {
      await Promise.all(servers.map(close));
      await closeTwoHosts(hosts);
    }
  });
});
