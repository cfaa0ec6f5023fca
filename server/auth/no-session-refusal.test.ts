/**
 * A bearer token without a session, sent to a staff route outside the releases API, is told what a team token does
 * (403), as the releases API tells it: "Sign in to continue." sent a team's CI looking for a sign-in it will never
 * have. Without a token the answer stays 401; a signed-in request with a stray Authorization header is served; a
 * token's own route keeps its own refusal of a token it does not take.
 */
import request from 'supertest';
import { ERROR_MESSAGES, PLACEMENTS_API_PATH, SESSION_TIME_PATH, teamTokenNotServedMessage } from '../../shared';
import { createDemoApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { tokenRefusalMessage } from '../releases/team-token-store';

let testApp: TestApp;
let token: string;

beforeAll(async () => {
  testApp = await createDemoApp();
  token = (await testApp.app.releases.teamTokens.create('team_billing', null)).token;
});
afterAll(() => testApp.close());

/** Staff routes of every kind of guard: a session, a permission, the tenant read by the route itself. */
const STAFF_ROUTES: ReadonlyArray<readonly ['get' | 'post' | 'put', string]> = [
  ['get', '/meta'],
  ['get', '/me'],
  ['post', '/tenant'],
  ['get', SESSION_TIME_PATH],
  ['get', '/api/resources'],
  ['get', '/api/resources/articles/records'],
  ['post', '/api/resources/articles/records'],
  ['get', PLACEMENTS_API_PATH],
  ['put', `${PLACEMENTS_API_PATH}/draft`],
  ['post', `${PLACEMENTS_API_PATH}/publish`],
  ['get', '/api/slots/inspect'],
  ['get', '/api/locations'],
  ['get', '/api/slot-stats'],
];

it.each(STAFF_ROUTES)('answers a team token on %s %s with 403 naming what a token serves', async (method, path) => {
  const answer = await request(testApp.app.handler)
    [method](path)
    .set('Authorization', `Bearer ${token}`)
    .send(method === 'get' ? undefined : {});
  expect([answer.status, answer.body]).toEqual([
    403,
    { error: { code: 'forbidden', message: teamTokenNotServedMessage() } },
  ]);
});

it.each(STAFF_ROUTES)('still asks a request without a token on %s %s to sign in', async (method, path) => {
  const answer = await request(testApp.app.handler)
    [method](path)
    .send(method === 'get' ? undefined : {});
  expect([answer.status, answer.body.error.message]).toEqual([401, ERROR_MESSAGES.unauthenticated]);
});

it('takes any bearer token, a guessed one included, and only a bearer token, as no sign-in to ask for', async () => {
  const guessed = await request(testApp.app.handler).get('/meta').set('Authorization', 'Bearer slt_nothing_known');
  expect([guessed.status, guessed.body.error.code]).toEqual([403, 'forbidden']);
  const basic = await request(testApp.app.handler).get('/meta').set('Authorization', 'Basic YWRtaW46YWRtaW4=');
  expect([basic.status, basic.body.error.message]).toEqual([401, ERROR_MESSAGES.unauthenticated]);
});

it('serves a signed-in request whatever its Authorization header says', async () => {
  const agent = await signedInAgent(testApp.app);
  expect((await agent.get('/meta').set('Authorization', `Bearer ${token}`)).status).toBe(200);
  expect((await agent.get('/api/resources').set('Authorization', 'Bearer slt_nothing_known')).status).toBe(200);
});

it('keeps the publish route’s own 401 for a token it does not know', async () => {
  const answer = await request(testApp.app.handler)
    .post('/api/remotes/team_billing/releases')
    .set('Authorization', 'Bearer slt_nothing_known')
    .send({ version: '1.0.0' });
  expect([answer.status, answer.body]).toEqual([
    401,
    { error: { code: 'unauthenticated', message: tokenRefusalMessage({ status: 'invalid' }) } },
  ]);
});

it('names both routes of a team token and sends the rest to a staff sign-in, in full', () => {
  expect(teamTokenNotServedMessage('team_billing')).toBe(
    "A team token only publishes its remote's releases (POST /api/remotes/team_billing/releases) and, where the " +
      'operators allow it ("teamRollouts" in the remote\'s REMOTES_CONFIG entry), starts and steers its progressive ' +
      'rollouts (/api/remotes/team_billing/rollouts). Every other route is for staff signed in with a session ' +
      '(POST /login), never for a token: activating a release, rolling back and canaries are done by an operator ' +
      'on the Releases page (/releases), or with a request signed in as one.',
  );
  expect(teamTokenNotServedMessage()).toContain('(POST /api/remotes/<name>/releases)');
});
