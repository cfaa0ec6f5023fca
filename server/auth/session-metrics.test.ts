/**
 * `slots_sessions_active` counts the sessions that can still be used, on each session store (SQLite, Redis,
 * PostgreSQL): not those of an account disabled with `npm run user:disable` (their next request is signed out), nor
 * those opened before a change of password, nor those of a deleted account, though all of them are still stored.
 * Nor a stored entry that passport would not take for a signed-in session (create-passport.ts), whatever it holds.
 */
import type { SessionData, Store } from 'express-session';
import { sql } from 'kysely';
import type { RedisClientType } from 'redis';
import request from 'supertest';
import { describeWithCommand } from '../../testing/describe-with-command';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import {
  addUser,
  createTestApp,
  signedInAgent,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';
import { credentialStampOf } from './user-store';
import type { SqliteEngine } from '../storage/sqlite-engine';
import { SESSIONS_ACTIVE_HELP } from './session-metrics';

const TOKEN = 'metrics-token-for-the-tests-0123';
const PASSWORD = 'member-password-123';

jest.setTimeout(30_000);

async function activeSessions(testApp: TestApp): Promise<number | undefined> {
  const response = await request(testApp.app.handler)
    .get('/metrics')
    .set('Authorization', `Bearer ${TOKEN}`)
    .expect(200);
  const families = parsePrometheusText(response.text);
  expect(families.get('slots_sessions_active')?.help).toBe(SESSIONS_ACTIVE_HELP);
  return sampleValue(families, 'slots_sessions_active');
}

/** Signs in three times (two accounts), then takes the sessions' use away in every way an account can lose it. */
async function countsOnlyUsableSessions(options: TestAppOptions): Promise<void> {
  const testApp = await createTestApp({ ...options, metrics: { token: TOKEN } });
  try {
    const { app } = testApp;
    await addUser(app, 'member', PASSWORD, ['north']);
    await addUser(app, 'other', PASSWORD, ['north']);
    await addUser(app, 'leaver', PASSWORD, ['north']);
    const member = await signedInAgent(app, 'member', PASSWORD);
    await signedInAgent(app, 'member', PASSWORD);
    await signedInAgent(app, 'other', PASSWORD);
    await signedInAgent(app, 'leaver', PASSWORD);
    expect(await activeSessions(testApp)).toBe(4);

    // What `npm run user:disable -- member` writes: both of its sessions are stored still, neither can be used.
    expect(await app.users.setDisabled('member', true)).toBe(true);
    expect(await activeSessions(testApp)).toBe(2);
    expect((await member.get('/me')).status).toBe(401);
    // Enabled again, it brings none of them back (create-passport.ts: their credential stamp is the old one).
    expect(await app.users.setDisabled('member', false)).toBe(true);
    expect(await activeSessions(testApp)).toBe(2);
    const again = await signedInAgent(app, 'member', PASSWORD);
    expect((await again.get('/me')).status).toBe(200);
    expect(await activeSessions(testApp)).toBe(3);

    // A new password ends the sessions opened with the old one; a deleted account's sessions are nobody's.
    await addUser(app, 'other', 'a-new-password-456', ['north']);
    await app.storage.db.deleteFrom('users').where('username', '=', 'leaver').execute();
    expect(await activeSessions(testApp)).toBe(1);
    await again.post('/logout').expect(204);
    expect(await activeSessions(testApp)).toBe(0);

    // A sign-in that makes an outdated hash again with the app's parameters keeps the account's sessions of before
    // (one stored as a sign-in before it would have: with the old hash's stamp).
    await addUser(app, 'old-timer', PASSWORD, ['north'], { N: 2 ** 9, r: 8, p: 1 });
    const { id, credentialStamp } = (await app.users.findByUsername('old-timer'))!;
    const cookie = { originalMaxAge: HOUR_MS, expires: new Date(Date.now() + HOUR_MS).toISOString() };
    await storeSet(app.sessions.store, 'of-before', {
      cookie,
      passport: { user: { id, credentials: credentialStamp } },
    });
    expect(await activeSessions(testApp)).toBe(1);
    await signedInAgent(app, 'old-timer', PASSWORD);
    expect(await activeSessions(testApp)).toBe(2);
  } finally {
    await testApp.close();
  }
}

const HOUR_MS = 3_600_000;
const NOT_AN_OBJECT = '[1, 2]';
/** The start of a session, cut: text a store could hold after a bad write or by hand, which no session reads. */
const NOT_JSON = '{"passport": {"user"';

function storeSet(store: Store, sid: string, data: object): Promise<void> {
  return new Promise((resolve, reject) => {
    store.set(sid, data as SessionData, (error?: unknown) => (error ? reject(error as Error) : resolve()));
  });
}

/**
 * Besides one signed-in session, stores an entry of the same account and stamp through the session store, entries
 * of other shapes, and texts written as they are (`storeText`).
 */
async function countsNoEntryOfAnotherShape(
  options: TestAppOptions,
  texts: readonly string[],
  storeText: (testApp: TestApp, sid: string, text: string) => Promise<void>,
): Promise<void> {
  const testApp = await createTestApp({ ...options, metrics: { token: TOKEN } });
  try {
    const { app } = testApp;
    await addUser(app, 'member', PASSWORD, ['north']);
    await signedInAgent(app, 'member', PASSWORD);
    const account = await app.storage.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'sessions_since'])
      .where('username', '=', 'member')
      .executeTakeFirstOrThrow();
    const credentials = credentialStampOf(account.password_hash, account.sessions_since);
    const cookie = (inMs: number) => ({ originalMaxAge: HOUR_MS, expires: new Date(Date.now() + inMs).toISOString() });
    const shapes: Record<string, object> = {
      usable: { cookie: cookie(HOUR_MS), passport: { user: { id: account.id, credentials } } },
      expired: { cookie: cookie(-HOUR_MS), passport: { user: { id: account.id, credentials } } },
      'id as text': { cookie: cookie(HOUR_MS), passport: { user: { id: String(account.id), credentials } } },
      'id not whole': { cookie: cookie(HOUR_MS), passport: { user: { id: account.id + 0.5, credentials } } },
      'stamp not text': { cookie: cookie(HOUR_MS), passport: { user: { id: account.id, credentials: 7 } } },
      'no stamp': { cookie: cookie(HOUR_MS), passport: { user: { id: account.id } } },
      'signed out': { cookie: cookie(HOUR_MS), passport: {} },
      'never signed in': { cookie: cookie(HOUR_MS), tenant: 'north' },
    };
    for (const [sid, data] of Object.entries(shapes)) await storeSet(app.sessions.store, sid, data);
    for (const [index, text] of texts.entries()) await storeText(testApp, `text ${index}`, text);
    expect(await activeSessions(testApp)).toBe(2);
  } finally {
    await testApp.close();
  }
}

describe('slots_sessions_active', () => {
  it('counts only the sessions that can still be used, on the SQLite file', async () => {
    await countsOnlyUsableSessions({});
  });

  it('counts no stored entry of another shape, nor text that is not JSON, on the SQLite file', async () => {
    await countsNoEntryOfAnotherShape({}, [NOT_AN_OBJECT, NOT_JSON], async (testApp, sid, text) => {
      (testApp.app.storage as SqliteEngine).file.db
        .prepare('INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?)')
        .run(sid, text, Date.now() + HOUR_MS);
    });
  });

  describeWithCommand(
    'redis-server',
    ['--version'],
    'redis-server',
  )('with sessions in Redis', () => {
    let redis: RedisServerProcess;
    beforeAll(async () => {
      redis = await RedisServerProcess.start();
    });
    afterAll(() => redis.stop());

    it('counts only the sessions that can still be used there too', async () => {
      await countsOnlyUsableSessions({ redisUrl: redis.url });
    });

    it('counts no stored entry of another shape, nor text that is not JSON, there either', async () => {
      await countsNoEntryOfAnotherShape(
        { redisUrl: redis.url },
        [NOT_AN_OBJECT, NOT_JSON],
        async (testApp, sid, text) => {
          const client = testApp.app.sessions.redisClient as RedisClientType;
          await client.set(`slots:sess:${sid}`, text, { EX: 3600 });
        },
      );
    });
  });

  describeWithPostgres()('with sessions in PostgreSQL', () => {
    const postgres = usePostgresDatabases('session_metrics', { poolSize: 4, statementTimeoutMs: 2000 });

    it('counts only the sessions that can still be used there too', async () => {
      await countsOnlyUsableSessions({ storage: await postgres.create() });
    });

    it('counts no stored entry of another shape there either (the column holds JSON only)', async () => {
      const storage = await postgres.create();
      await countsNoEntryOfAnotherShape({ storage }, [NOT_AN_OBJECT, '"text"'], async (testApp, sid, text) => {
        await sql`INSERT INTO sessions (sid, sess, expire)
          VALUES (${sid}, ${text}::json, now() + interval '1 hour')`.execute(testApp.app.storage.db);
      });
    });
  });
});
