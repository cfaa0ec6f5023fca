/**
 * The signed-in user and their memberships are cached per database change stamp: every change must still count
 * on the next request, whether this process made it or another one did (the user:add command, another instance).
 */
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import type { MePayload, MetaPayload } from '../../shared';
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
    const user = testApp.app.users.findByUsername('member');
    testApp.app.tenants.addMembership(user?.id as number, 'north');
    const meta = await agent.get('/meta');
    expect(meta.status).toBe(200);
    expect((meta.body as MetaPayload).slots).toEqual({});
  });
});
