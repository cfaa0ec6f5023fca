/**
 * A team token sent to a releases route only staff use is told what a team token does and who does the rest, with
 * 403, naming the route's remote: the session guard's "Sign in to continue." sent a team's CI looking for a sign-in it
 * will never have. (The message in full, and the other staff routes: auth/no-session-refusal.test.ts.)
 */
import request from 'supertest';
import { ERROR_MESSAGES, teamTokenNotServedMessage } from '../../shared';
import { addOperator, createTestApp, signedInAgent, type TestApp } from '../../testing/server/test-app';

let testApp: TestApp;
let token: string;

beforeAll(async () => {
  testApp = await createTestApp();
  await addOperator(testApp.app);
  token = (await testApp.app.releases.teamTokens.create('team_billing', null)).token;
});
afterAll(() => testApp.close());

/** Every releases route a team token does not serve, and whether its path names the remote. */
const STAFF_ROUTES: ReadonlyArray<readonly ['get' | 'post' | 'delete', string, boolean]> = [
  ['post', '/api/remotes/team_billing/activate', true],
  ['post', '/api/remotes/team_billing/rollback', true],
  ['post', '/api/remotes/team_billing/deactivate', true],
  ['post', '/api/remotes/team_billing/canary', true],
  ['delete', '/api/remotes/team_billing/canary', true],
  ['post', '/api/remotes/team_billing/preview', true],
  ['delete', '/api/remotes/team_billing/preview', true],
  ['get', '/api/remotes/team_billing/history', true],
  ['get', '/api/remotes/releases', false],
];

it.each(STAFF_ROUTES)('answers a team token on %s %s with 403 saying what it may do', async (method, path, named) => {
  const answer = await request(testApp.app.handler)
    [method](path)
    .set('Authorization', `Bearer ${token}`)
    .send(method === 'post' ? { version: '1.0.0' } : undefined);
  expect(answer.status).toBe(403);
  expect(answer.body).toEqual({
    error: { code: 'forbidden', message: teamTokenNotServedMessage(named ? 'team_billing' : undefined) },
  });
});

it('still asks a request with neither a token nor a session to sign in', async () => {
  const answer = await request(testApp.app.handler).post('/api/remotes/team_billing/activate').send({});
  expect([answer.status, answer.body.error.message]).toEqual([401, ERROR_MESSAGES.unauthenticated]);
});

it("takes a signed-in operator's request as the operator's, whatever its Authorization header", async () => {
  const operator = await signedInAgent(testApp.app);
  const answer = await operator.get('/api/remotes/releases').set('Authorization', `Bearer ${token}`);
  expect(answer.status).toBe(200);
});
