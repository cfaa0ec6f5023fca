/**
 * The sign-in limits on PostgreSQL, two hosts on one database: the account's count, the slow-down and the clients
 * known to an account are shared, so an owner known on one host is known on the other, and successes on either
 * host leave nothing behind.
 */
import request from 'supertest';
import { describeWithPostgres, usePostgresDatabases } from '../../../testing/server/postgres-server';
import { createDemoApp, createTwoHosts, DEMO_PASSWORD, type TestApp } from '../../../testing/server/test-app';

const LIMITS = { perAccountAndIp: 3, perIp: 50, perAccount: 3, accountSlowdownSeconds: 60, windowSeconds: 900 };

describeWithPostgres()('sign-in limits on PostgreSQL, two hosts', () => {
  const postgres = usePostgresDatabases('login_limits', { poolSize: 5, statementTimeoutMs: 2000 });
  let hosts: TestApp[] = [];

  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });

  const attempt = (host: TestApp, password: string, ip: string) =>
    request(host.app.handler)
      .post('/login')
      .set('X-Forwarded-For', ip)
      .send({ username: 'admin', password })
      .then((response) => response.status);

  it('counts only failures across hosts, and keeps the owner known on both while guesses are slowed', async () => {
    // Behind one proxy each (TRUST_PROXY=1).
    const storage = await postgres.create();
    const [a, b] = await createTwoHosts(createDemoApp, { storage, loginRateLimit: LIMITS, trustProxy: 1 });
    hosts = [a, b];
    // Correct sign-ins from new addresses, more than the account's limit, on both hosts: all succeed.
    for (let i = 0; i < 8; i++) expect(await attempt(i % 2 ? a : b, DEMO_PASSWORD, `10.0.1.${i}`)).toBe(200);
    const owner = '203.0.113.10';
    expect(await attempt(a, DEMO_PASSWORD, owner)).toBe(200);
    // The account's limit is whole: three failures, then one guess per minute, whichever host they reach.
    const guesses = [];
    for (let i = 1; i <= 8; i++) guesses.push(await attempt(i % 2 ? a : b, `wrong-${i}`, `198.51.100.${i}`));
    expect(guesses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    // The owner's address, known since the sign-in on host a, is not slowed on host b.
    expect(await attempt(b, DEMO_PASSWORD, owner)).toBe(200);
    expect(await attempt(a, 'guess', '198.51.100.99')).toBe(429);
  });
});
