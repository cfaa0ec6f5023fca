/**
 * Requests with an unknown team token are limited per client (429 with Retry-After and the JSON error), across hosts
 * sharing a database, before the token is looked up: without it a client could try tokens at full speed. A token that
 * is known (valid, revoked, expired) counts nothing, and a correct token from another address is never limited.
 */
import request from 'supertest';
import { ERROR_MESSAGES } from '../../shared';
import { closeTwoHosts, createTestApp, createTwoHosts, type TestApp } from '../../testing/server/test-app';

const LIMIT = { perIp: 3, windowSeconds: 900 };
const GUESSER = '198.51.100.7';
const TEAM = '203.0.113.20';

let hosts: [TestApp, TestApp];
let token: string;

beforeEach(async () => {
  // Behind one proxy each (TRUST_PROXY=1): X-Forwarded-For names the client.
  hosts = await createTwoHosts(createTestApp, { teamTokenLimit: LIMIT, trustProxy: 1 });
  token = (await hosts[0].app.releases.teamTokens.create('team_billing', null)).token;
});
afterEach(() => closeTwoHosts(hosts));

/** A publish of team_billing (its body refused, 400, once the token is taken) from `ip` through `host`. */
function publish(host: TestApp, bearer: string, ip: string) {
  return request(host.app.handler)
    .post('/api/remotes/team_billing/releases')
    .set('X-Forwarded-For', ip)
    .set('Authorization', `Bearer ${bearer}`)
    .send({});
}

it('answers 429 with Retry-After once a client sent its limit of unknown tokens, whichever host they reached', async () => {
  const [a, b] = hosts;
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await publish(i % 2 ? a : b, `slt_guess_${i}`, GUESSER)).status);
  expect(statuses).toEqual([401, 401, 401]);
  const refused = await publish(a, 'slt_guess_3', GUESSER);
  expect([refused.status, refused.body]).toEqual([
    429,
    { error: { code: 'too_many_requests', message: ERROR_MESSAGES.tooManyTokenChecks } },
  ]);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
  // The rollouts routes take tokens too, and count on the same client.
  const rollouts = await request(b.app.handler)
    .get('/api/remotes/team_billing/rollouts/current')
    .set('X-Forwarded-For', GUESSER)
    .set('Authorization', 'Bearer slt_guess_4');
  expect(rollouts.status).toBe(429);
  // A correct token from that client waits too: answering it would tell the guesser which of its tries is right.
  expect((await publish(b, token, GUESSER)).status).toBe(429);
});

it('never limits a correct token from another address, nor a known token as a guess', async () => {
  const [a, b] = hosts;
  for (let i = 0; i < 5; i++) await publish(a, `slt_guess_${i}`, GUESSER);
  expect((await publish(b, token, TEAM)).status).toBe(400);
  // Valid, revoked and expired tokens are no guesses: far more of them than the limit are all checked.
  const revoked = await a.app.releases.teamTokens.create('team_billing', null);
  await a.app.releases.teamTokens.revoke(revoked.id);
  const expired = await a.app.releases.teamTokens.create('team_billing', -1000);
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    for (const known of [token, revoked.token, expired.token]) statuses.push((await publish(b, known, TEAM)).status);
  }
  expect(statuses).toEqual([400, 401, 401, 400, 401, 401, 400, 401, 401]);
  // And they took nothing from the client's own allowance of unknown tokens.
  const guesses = [];
  for (let i = 0; i < 4; i++) guesses.push((await publish(a, `slt_other_${i}`, TEAM)).status);
  expect(guesses).toEqual([401, 401, 401, 429]);
});

it('counts nothing with the limit off', async () => {
  await closeTwoHosts(hosts);
  hosts = await createTwoHosts(createTestApp, { teamTokenLimit: { ...LIMIT, perIp: null }, trustProxy: 1 });
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await publish(hosts[i % 2]!, `slt_guess_${i}`, GUESSER)).status);
  expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
});
