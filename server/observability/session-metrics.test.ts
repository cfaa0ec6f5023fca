/**
 * `slots_sessions_active` counts the sessions that can still be used, on each session store (SQLite, Redis,
 * PostgreSQL): not those of an account disabled with `npm run user:disable` (their next request is signed out), nor
 * those opened before a change of password, nor those of a deleted account, though all of them are still stored.
 */
import request from 'supertest';
import { describeWithCommand } from '../../testing/describe-with-command';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { startRedisServer, type RedisServer } from '../../testing/server/redis-server';
import {
  addUser,
  createTestApp,
  signedInAgent,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';
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
  } finally {
    await testApp.close();
  }
}

describe('slots_sessions_active', () => {
  it('counts only the sessions that can still be used, on the SQLite file', async () => {
    await countsOnlyUsableSessions({});
  });

  describeWithCommand(
    'redis-server',
    ['--version'],
    'redis-server',
  )('with sessions in Redis', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(() => redis.stop());

    it('counts only the sessions that can still be used there too', async () => {
      await countsOnlyUsableSessions({ redisUrl: redis.url });
    });
  });

  describeWithPostgres()('with sessions in PostgreSQL', () => {
    const postgres = usePostgresDatabases('session_metrics', { poolSize: 4, statementTimeoutMs: 2000 });

    it('counts only the sessions that can still be used there too', async () => {
      await countsOnlyUsableSessions({ storage: await postgres.create() });
    });
  });
});
