/**
 * The signed-in user and their memberships are cached per database change stamp: every change must still count
 * on the next request, whether this process made it or another one did (the user:add command, another instance).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import type BetterSqlite3 from 'better-sqlite3';
import { ERROR_MESSAGES, type MePayload, type MetaPayload } from '../../shared';
import { describeWithCommand } from '../../testing/describe-with-command';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import { addUser, createTestApp, signedInAgent, type TestApp } from '../../testing/server/test-app';

const PASSWORD = 'member-password-123';

describe('account changes while signed in', () => {
  let testApp: TestApp;
  /** Another connection to the same file, as another process would have. */
  let other: BetterSqlite3.Database;

  beforeEach(async () => {
    testApp = await createTestApp();
    await addUser(testApp.app, 'member', PASSWORD, ['north', 'south']);
    other = new Database(testApp.databasePath);
    other.pragma('busy_timeout = 5000');
  });

  afterEach(async () => {
    other.close();
    await testApp.close();
  });

  const signIn = () => signedInAgent(testApp.app, 'member', PASSWORD);

  it('signs out an account deleted by another process, at its next request', async () => {
    const agent = await signIn();
    expect((await agent.get('/meta')).status).toBe(200);
    expect((await agent.get('/me')).status).toBe(200);
    other.prepare("DELETE FROM users WHERE username = 'member'").run();
    expect((await agent.get('/meta')).status).toBe(401);
    expect((await agent.get('/me')).status).toBe(401);
  });

  it('shows a new display name at once', async () => {
    const agent = await signIn();
    expect(((await agent.get('/me')).body as MePayload).user.displayName).toBe('member');
    other.prepare("UPDATE users SET display_name = 'Renamed' WHERE username = 'member'").run();
    expect(((await agent.get('/me')).body as MePayload).user.displayName).toBe('Renamed');
  });

  it('moves the user out of a tenant whose membership another process removed', async () => {
    const agent = await signIn();
    expect((await agent.post('/tenant').send({ tenant: 'south' })).status).toBe(200);
    expect(((await agent.get('/me')).body as MePayload).user.currentTenant).toBe('south');
    other.prepare("DELETE FROM memberships WHERE tenant_id = 'south'").run();
    const me = (await agent.get('/me')).body as MePayload;
    expect(me.user.tenants.map((tenant) => tenant.id)).toEqual(['north']);
    expect(me.user.currentTenant).toBe('north');
    expect((await agent.post('/tenant').send({ tenant: 'south' })).status).toBe(403);
  });

  it('refuses /meta once the user belongs to no tenant, and serves it again after a membership is added here', async () => {
    const agent = await signIn();
    expect((await agent.get('/meta')).status).toBe(200);
    other.prepare('DELETE FROM memberships').run();
    expect((await agent.get('/meta')).status).toBe(403);
    const user = await testApp.app.users.findByUsername('member');
    await testApp.app.tenants.addMembership(user?.id as number, 'north');
    const meta = await agent.get('/meta');
    expect(meta.status).toBe(200);
    expect((meta.body as MetaPayload).slots).toEqual({});
  });
});

describe('a change of password', () => {
  it('ends every session opened with the old password, on the SQLite store, made here or by another process', async () => {
    const testApp = await createTestApp();
    try {
      await addUser(testApp.app, 'member', PASSWORD, ['north']);
      const first = await signedInAgent(testApp.app, 'member', PASSWORD);
      const second = await signedInAgent(testApp.app, 'member', PASSWORD);
      // A session that makes no request while the account is disabled (a laptop left shut, a stolen cookie).
      const idle = await signedInAgent(testApp.app, 'member', PASSWORD);
      expect((await first.get('/me')).status).toBe(200);

      // What `npm run user:add -- member` does: a new hash for the same account.
      await addUser(testApp.app, 'member', 'a-new-password-456', ['north']);
      for (const agent of [first, second]) {
        expect((await agent.get('/me')).status).toBe(401);
        expect((await agent.get('/meta')).status).toBe(401);
        expect((await agent.put('/api/resources/anything/records/1').send({ title: 'x' })).status).toBe(401);
      }
      // The new password opens a session that lasts.
      const fresh = await signedInAgent(testApp.app, 'member', 'a-new-password-456');
      expect((await fresh.get('/me')).status).toBe(200);

      // The same when another process (the CLI) writes the new hash to the file.
      const other = new Database(testApp.databasePath);
      try {
        other.pragma('busy_timeout = 5000');
        other.prepare("UPDATE users SET password_hash = 'scrypt$changed-elsewhere' WHERE username = 'member'").run();
      } finally {
        other.close();
      }
      expect((await fresh.get('/me')).status).toBe(401);
    } finally {
      await testApp.close();
    }
  });

  describeWithCommand(
    'redis-server',
    ['--version'],
    'redis-server',
  )('with sessions in Redis', () => {
    it('ends them there too', async () => {
      const redis = await RedisServerProcess.start();
      const testApp = await createTestApp({ redisUrl: redis.url });
      try {
        await addUser(testApp.app, 'member', PASSWORD, ['north']);
        const agent = await signedInAgent(testApp.app, 'member', PASSWORD);
        expect((await agent.get('/me')).status).toBe(200);
        await addUser(testApp.app, 'member', 'a-new-password-456', ['north']);
        expect((await agent.get('/me')).status).toBe(401);
        expect((await (await signedInAgent(testApp.app, 'member', 'a-new-password-456')).get('/me')).status).toBe(200);
      } finally {
        await testApp.close();
        await redis.stop();
      }
    });
  });
});

describe('disabling an account', () => {
  const CLI = path.join(__dirname, '..', 'cli', 'user-access.ts');

  function runUserAccess(databasePath: string, ...args: string[]) {
    return spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env: { ...process.env, DATABASE_PATH: databasePath },
      encoding: 'utf8',
    });
  }

  it('with npm run user:disable ends its sessions and refuses its sign-in (the right password told it is disabled); enable restores it', async () => {
    const testApp = await createTestApp();
    try {
      await addUser(testApp.app, 'member', PASSWORD, ['north']);
      const first = await signedInAgent(testApp.app, 'member', PASSWORD);
      const second = await signedInAgent(testApp.app, 'member', PASSWORD);
      // A session that makes no request while the account is disabled (a laptop left shut, a stolen cookie).
      const idle = await signedInAgent(testApp.app, 'member', PASSWORD);
      expect((await first.get('/me')).status).toBe(200);
      const wrongPassword = await request(testApp.app.handler)
        .post('/login')
        .send({ username: 'member', password: 'not-the-password' });

      const disabled = runUserAccess(testApp.databasePath, 'disable', 'member');
      expect(disabled.status).toBe(0);
      expect(disabled.stdout).toContain('Disabled "member"');
      for (const agent of [first, second]) {
        expect((await agent.get('/me')).status).toBe(401);
        expect((await agent.get('/meta')).status).toBe(401);
        expect((await agent.put('/api/resources/anything/records/1').send({ title: 'x' })).status).toBe(401);
      }
      // Its right password is told the account is disabled (the owner stops trying); a wrong one gets the answer a
      // wrong password got while it was enabled: nothing for a guesser to tell apart.
      const refused = await request(testApp.app.handler)
        .post('/login')
        .send({ username: 'member', password: PASSWORD });
      expect([refused.status, refused.body]).toEqual([
        403,
        { error: { code: 'account_disabled', message: ERROR_MESSAGES.accountDisabled } },
      ]);
      const guessed = await request(testApp.app.handler)
        .post('/login')
        .send({ username: 'member', password: 'not-the-password' });
      expect([guessed.status, guessed.text]).toEqual([wrongPassword.status, wrongPassword.text]);

      expect(runUserAccess(testApp.databasePath, 'enable', 'member').status).toBe(0);
      const again = await signedInAgent(testApp.app, 'member', PASSWORD);
      expect((await again.get('/me')).status).toBe(200);
      // The sessions it had before stay ended, those seen refused while it was disabled and those not seen since.
      expect((await first.get('/me')).status).toBe(401);
      expect((await idle.get('/me')).status).toBe(401);
      expect((await again.get('/me')).status).toBe(200);

      const missing = runUserAccess(testApp.databasePath, 'disable', 'nobody');
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('There is no account "nobody"');
      expect(runUserAccess(testApp.databasePath, 'disable').status).toBe(2);
    } finally {
      await testApp.close();
    }
  });
});
