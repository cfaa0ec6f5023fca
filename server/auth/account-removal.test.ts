/**
 * Removing an account ends its sessions at once in every store: the database's rows (SQLite, PostgreSQL) go in the
 * removing transaction, Redis's keys with user:remove when REDIS_URL is set. They were refused at their next request
 * already (no account to read back), but stayed stored until they expired. Another account's sessions stay. Run
 * without REDIS_URL, or with a Redis failing after the removal, user:remove says that those in Redis stay.
 */
import type { RedisStore } from 'connect-redis';
import { sql } from 'kysely';
import type { RedisClientType } from 'redis';
import request from 'supertest';
import { describeWithCommand } from '../../testing/describe-with-command';
import { ENGINES } from '../../testing/server/engines-under-test';
import { runServerCommand } from '../../testing/server/run-server-command';
import { addUser, createTestApp, sessionCookieOf, type TestApp } from '../../testing/server/test-app';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import type { App } from '../app';
import { removeAccount } from './account-removal';
import { endRedisSessionsOf } from './redis-account-sessions';

jest.setTimeout(60_000);

const PASSWORD = 'member-password-123';

/** A session as Redis holds it, signed in as create-passport.ts signs in. */
interface StoredSession {
  passport?: { user?: { id?: unknown } };
}

async function signIn(app: App, username: string): Promise<string> {
  const response = await request(app.handler).post('/login').send({ username, password: PASSWORD });
  expect(response.status).toBe(200);
  return sessionCookieOf(response) as string;
}

const meStatus = async (app: App, cookie: string) =>
  (await request(app.handler).get('/me').set('Cookie', cookie)).status;

async function idOf(app: App, username: string): Promise<number> {
  return (await app.users.findByUsername(username))!.id;
}

/** ann (two sessions) and bob (one), each a member of acme. */
async function seed(app: App): Promise<{ ann: string[]; bob: string }> {
  await addUser(app, 'ann', PASSWORD, ['acme']);
  await addUser(app, 'bob', PASSWORD, ['acme']);
  return { ann: [await signIn(app, 'ann'), await signIn(app, 'ann')], bob: await signIn(app, 'bob') };
}

for (const engineUnderTest of ENGINES) {
  engineUnderTest.describeFor(`removing an account, sessions in ${engineUnderTest.name}`, () => {
    let testApp: TestApp;

    beforeAll(() => engineUnderTest.setUp(), 60_000);
    afterAll(() => engineUnderTest.tearDown(), 30_000);
    beforeEach(async () => {
      testApp = await createTestApp({ storage: await engineUnderTest.freshDatabase() });
    });
    afterEach(() => testApp.close());

    /** The stored session rows signed in as the account, expired or not. */
    const storedSessions = async (id: number) =>
      Number(
        (
          await sql<{ count: number | string }>`SELECT count(*) AS count FROM sessions WHERE user_id = ${id}`.execute(
            testApp.app.storage.db,
          )
        ).rows[0]?.count,
      );

    it('deletes its stored sessions in the removing transaction, another account’s stay', async () => {
      const { app } = testApp;
      const { ann, bob } = await seed(app);
      const [annId, bobId] = [await idOf(app, 'ann'), await idOf(app, 'bob')];
      expect([await storedSessions(annId), await storedSessions(bobId)]).toEqual([2, 1]);

      const plan = await removeAccount(app.storage, 'ann', 'the test database', { planOnly: true });
      expect(plan.id).toBe(annId);
      expect(await storedSessions(annId)).toBe(2);

      await removeAccount(app.storage, 'ann', 'the test database');
      expect([await storedSessions(annId), await storedSessions(bobId)]).toEqual([0, 1]);
      for (const cookie of ann) expect(await meStatus(app, cookie)).toBe(401);
      expect(await meStatus(app, bob)).toBe(200);
    });
  });
}

describeWithCommand(
  'redis-server',
  ['--version'],
  'redis-server',
)('removing an account, sessions in Redis', () => {
  let redis: RedisServerProcess;
  let testApp: TestApp;

  beforeAll(async () => {
    redis = await RedisServerProcess.start();
  });
  afterAll(() => redis.stop());
  beforeEach(async () => {
    testApp = await createTestApp({ redisUrl: redis.url });
    // One Redis for the file: the sessions of the case before (whose accounts' ids come again) are not this one's.
    await (testApp.app.sessions.store as RedisStore).client.flushAll();
  });
  afterEach(() => testApp.close());

  const NOT_JSON = 'not-json';
  const store = () => testApp.app.sessions.store as RedisStore;

  /** The session keys in Redis signed in as the account. */
  async function storedSessions(id: number): Promise<number> {
    const client = store().client as RedisClientType;
    const keys = (await client.keys(`${store().prefix}*`)).filter((key) => !key.endsWith(NOT_JSON));
    const values = keys.length === 0 ? [] : await client.mGet(keys);
    return values.filter((raw) => raw !== null && (JSON.parse(raw) as StoredSession).passport?.user?.id === id).length;
  }

  it('deletes the account’s session keys only, whatever else Redis holds', async () => {
    const { app } = testApp;
    const { ann, bob } = await seed(app);
    const [annId, bobId] = [await idOf(app, 'ann'), await idOf(app, 'bob')];
    const client = store().client as RedisClientType;
    // Not sessions of ann: a key of another prefix naming her, and a value under the prefix that is not JSON.
    await client.set('other:sess:x', JSON.stringify({ passport: { user: { id: annId } } }));
    await client.set(`${store().prefix}${NOT_JSON}`, '{');
    expect([await storedSessions(annId), await storedSessions(bobId)]).toEqual([2, 1]);

    expect(await endRedisSessionsOf(store(), annId)).toBe(2);
    expect([await storedSessions(annId), await storedSessions(bobId)]).toEqual([0, 1]);
    expect(await client.get('other:sess:x')).not.toBeNull();
    expect(await client.get(`${store().prefix}${NOT_JSON}`)).toBe('{');
    for (const cookie of ann) expect(await meStatus(app, cookie)).toBe(401);
    expect(await meStatus(app, bob)).toBe(200);
  });

  it('npm run user:remove with REDIS_URL deletes them; Redis not answering refuses it, nothing changed', async () => {
    const { app } = testApp;
    const { ann, bob } = await seed(app);
    const [annId, bobId] = [await idOf(app, 'ann'), await idOf(app, 'bob')];

    const gone = await RedisServerProcess.start();
    await gone.stop();
    const refused = await runServerCommand('user-remove.ts', ['ann', '--yes'], {
      DATABASE_PATH: testApp.databasePath,
      DATABASE_URL: '',
      REDIS_URL: gone.url,
    });
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toMatch(/^user:remove failed: Could not connect to Redis at /);
    expect(await app.users.findByUsername('ann')).toBeDefined();
    expect(await meStatus(app, ann[0]!)).toBe(200);

    const run = await runServerCommand('user-remove.ts', ['ann', '--yes'], {
      DATABASE_PATH: testApp.databasePath,
      DATABASE_URL: '',
      REDIS_URL: redis.url,
    });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(
      /^Removed the account "ann" .* Its sessions ended with it, in the database and in Redis at redis:\/\/127\.0\.0\.1:\d+ \(2 there\)\. What the audit/,
    );
    expect([await storedSessions(annId), await storedSessions(bobId)]).toEqual([0, 1]);
    expect(await meStatus(app, bob)).toBe(200);
  });

  it('npm run user:remove without REDIS_URL says its sessions in Redis stay until they expire, each refused', async () => {
    const { app } = testApp;
    const { ann, bob } = await seed(app);
    const [annId, bobId] = [await idOf(app, 'ann'), await idOf(app, 'bob')];

    // The servers keep sessions in Redis; the command, run without their REDIS_URL, cannot know it.
    const run = await runServerCommand('user-remove.ts', ['ann', '--yes'], {
      DATABASE_PATH: testApp.databasePath,
      DATABASE_URL: '',
      REDIS_URL: '',
    });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^Removed the account "ann" \(tenants: acme; grants: none\) from /);
    expect(run.stdout).not.toContain('Its sessions ended with it');
    expect(run.stdout).toContain(
      `from SQLite ${testApp.databasePath}. Its sessions in the database ended with it. REDIS_URL is not set here: if the ` +
        `servers keep sessions in Redis, its sessions there stay stored until they expire (user:remove deletes them ` +
        `at once when run with the servers' REDIS_URL); either way each is refused at its next request, the account ` +
        'being gone. What the audit trails, releases and placement revisions say it did stays, under its name.\n',
    );
    // As it says: still stored in Redis, refused all the same.
    expect(await app.users.findByUsername('ann')).toBeUndefined();
    expect([await storedSessions(annId), await storedSessions(bobId)]).toEqual([2, 1]);
    for (const cookie of ann) expect(await meStatus(app, cookie)).toBe(401);
    expect(await meStatus(app, bob)).toBe(200);
  });

  it('npm run user:remove whose Redis fails after the account is removed says it is removed, and what is left', async () => {
    const { app } = testApp;
    const { ann, bob } = await seed(app);
    const [annId, bobId] = [await idOf(app, 'ann'), await idOf(app, 'bob')];
    // A Redis that lets the command in (ready() answers) and fails it once the account is removed: DEL refused.
    const client = store().client as RedisClientType;
    await client.sendCommand(['ACL', 'SETUSER', 'remover', 'on', '>remover-password', '~*', '&*', '+@all', '-del']);
    try {
      const run = await runServerCommand('user-remove.ts', ['ann', '--yes'], {
        DATABASE_PATH: testApp.databasePath,
        DATABASE_URL: '',
        REDIS_URL: redis.url.replace('redis://', 'redis://remover:remover-password@'),
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe(
        `Removed the account "ann" (tenants: acme; grants: none) from SQLite ${testApp.databasePath}. Its sessions in the ` +
          'database ended with it. What the audit trails, releases and placement revisions say it did stays, under ' +
          'its name.\n',
      );
      const where = redis.url.replace('redis://', 'redis://remover:***@');
      expect(run.stderr).toMatch(
        new RegExp(
          `^The account is removed, but Redis at ${where.replace(/[.*]/g, '\\$&')} failed before deleting any of ` +
            'its sessions there: NOPERM [^\n]*\\bdel\\b[^\n]*\\. Those left there stay stored until they expire, ' +
            'each refused at its next request, the account being gone\\. There is nothing to run again: user:remove ' +
            'would find no account\\.\n$',
        ),
      );
      expect(run.stderr).not.toContain('remover-password');
    } finally {
      await client.sendCommand(['ACL', 'DELUSER', 'remover']);
    }
    expect(await app.users.findByUsername('ann')).toBeUndefined();
    expect([await storedSessions(annId), await storedSessions(bobId)]).toEqual([2, 1]);
    for (const cookie of ann) expect(await meStatus(app, cookie)).toBe(401);
    expect(await meStatus(app, bob)).toBe(200);
  });
});
