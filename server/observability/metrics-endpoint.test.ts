/**
 * `GET /metrics` of the app: served only with a token (404 without the `metrics` option, 401 without the token), in
 * Prometheus' text format as a strict parser reads it, with the figures operators asked for: request durations by
 * route and status, sign-in outcomes and sign-outs, sessions, Node's own figures.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { addUser, createDemoApp, DEMO_PASSWORD, type TestApp } from '../../testing/server/test-app';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { listenForMetrics } from './metrics-listener';

const TOKEN = 'metrics-token-for-the-tests-0123';

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

async function scrape(app: TestApp['app']) {
  const response = await request(app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(response.text);
}

describe('GET /metrics', () => {
  it('is not served (404) when metrics are off, and nothing is measured', async () => {
    testApp = await createDemoApp();
    await request(testApp.app.handler).get('/slots').expect(200);
    await request(testApp.app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(404);
    expect(await testApp.app.metrics.text()).toBe('\n');
  });

  it('answers 401 without the token or with a wrong one, never the figures', async () => {
    testApp = await createDemoApp({ metrics: { token: TOKEN } });
    const http = request(testApp.app.handler);
    const anonymous = await http.get('/metrics').expect(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(anonymous.body.error.code).toBe('unauthenticated');
    expect(anonymous.text).not.toContain('slots_');
    await http.get('/metrics').set('Authorization', `Bearer ${TOKEN}x`).expect(401);
    await http.get('/metrics').set('Authorization', TOKEN).expect(401);
    await http.get(`/metrics?token=${TOKEN}`).expect(401);
    await http.get('/metrics').set('Authorization', `Basic ${TOKEN}`).expect(401);
    await http.get('/metrics').set('Authorization', `Bearer${TOKEN}`).expect(401);
  });

  it('takes the Bearer scheme in any case (auth schemes are case-insensitive), on its own port too', async () => {
    testApp = await createDemoApp({ metrics: { token: TOKEN } });
    const http = request(testApp.app.handler);
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      await http.get('/metrics').set('Authorization', `${scheme} ${TOKEN}`).expect(200);
    }
    const listener = await listenForMetrics(testApp.app.metrics, { token: TOKEN, host: '127.0.0.1', port: 0 });
    try {
      const own = request(listener.server);
      await own.get('/metrics').set('Authorization', `bearer ${TOKEN}`).expect(200);
      await own.get('/metrics').set('Authorization', `bearer ${TOKEN}x`).expect(401);
    } finally {
      await listener.close();
    }
  });

  it('gives request durations by route pattern and status, never by URL', async () => {
    testApp = await createDemoApp({ metrics: { token: TOKEN } });
    const http = request(testApp.app.handler);
    await http.get('/slots').expect(200);
    await http.get('/slots').expect(200);
    await http.get('/no-such-file-3f1a.js').expect(404);
    const families = await scrape(testApp.app);
    const durations = families.get('slots_http_request_duration_seconds');
    expect(durations?.type).toBe('histogram');
    expect(
      sampleValue(families, 'slots_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/slots',
        status: '200',
      }),
    ).toBe(2);
    expect(
      // The host's catch-all for files: its pattern, whatever file was asked for.
      sampleValue(families, 'slots_http_request_duration_seconds_count', { route: '/*splat', status: '404' }),
    ).toBe(1);
    expect(JSON.stringify(durations)).not.toContain('no-such-file');
    // Buckets are cumulative and end with +Inf, which holds every answer.
    expect(
      sampleValue(families, 'slots_http_request_duration_seconds_bucket', {
        route: '/slots',
        status: '200',
        le: '+Inf',
      }),
    ).toBe(2);
  });

  it('names the host’s and the remotes’ files by one route each, whatever file was asked for', async () => {
    testApp = await createDemoApp({ metrics: { token: TOKEN } });
    const dist = path.join(testApp.dir.path, 'dist');
    for (const file of ['host/assets/main.0123456789.js', 'remotes/team_x/remoteEntry.0123456789.js']) {
      fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
      fs.writeFileSync(path.join(dist, file), 'console.log(1);');
    }
    const http = request(testApp.app.handler);
    await http.get('/assets/main.0123456789.js').expect(200);
    await http.get('/remotes/team_x/remoteEntry.0123456789.js').expect(200);
    await http.head('/remotes/team_x/remoteEntry.0123456789.js').expect(200);
    const families = await scrape(testApp.app);
    const count = (method: string, route: string) =>
      sampleValue(families, 'slots_http_request_duration_seconds_count', { method, route, status: '200' });
    expect(count('GET', '/assets/*file')).toBe(1);
    expect(count('GET', '/remotes/*file')).toBe(1);
    expect(count('HEAD', '/remotes/*file')).toBe(1);
    expect(JSON.stringify(families.get('slots_http_request_duration_seconds'))).not.toContain('0123456789');
  });

  it('counts sign-ins by outcome, sign-outs and the sessions stored', async () => {
    testApp = await createDemoApp({ metrics: { token: TOKEN } });
    // Every outcome from the first scrape, at 0: a rate alert counts from a series' first sample.
    const first = await scrape(testApp.app);
    for (const outcome of ['signed-in', 'refused', 'throttled', 'unavailable', 'error']) {
      expect([outcome, sampleValue(first, 'slots_sign_ins_total', { outcome })]).toEqual([outcome, 0]);
    }
    const http = request(testApp.app.handler);
    await http.post('/login').send({ username: 'admin', password: 'not-the-password' }).expect(401);
    await http.post('/login').send({ username: 'admin' }).expect(400);
    const agent = request.agent(testApp.app.handler);
    await agent.post('/login').send({ username: 'admin', password: DEMO_PASSWORD }).expect(200);
    await request.agent(testApp.app.handler).post('/login').send({ username: 'admin', password: DEMO_PASSWORD });

    let families = await scrape(testApp.app);
    expect(sampleValue(families, 'slots_sign_ins_total', { outcome: 'refused' })).toBe(1);
    expect(sampleValue(families, 'slots_sign_ins_total', { outcome: 'invalid-request' })).toBe(1);
    expect(sampleValue(families, 'slots_sign_ins_total', { outcome: 'signed-in' })).toBe(2);
    expect(sampleValue(families, 'slots_sessions_active')).toBe(2);

    await agent.post('/logout').expect(204);
    families = await scrape(testApp.app);
    expect(sampleValue(families, 'slots_sign_outs_total')).toBe(1);
    expect(sampleValue(families, 'slots_sessions_active')).toBe(1);
    // Node's own figures, under the same prefix.
    expect(families.get('slots_process_resident_memory_bytes')?.type).toBe('gauge');
    expect(families.get('slots_nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
    // SQLite has no pool: no pool figures rather than made-up ones.
    expect(families.has('slots_db_pool_connections')).toBe(false);
  });

  it('counts a sign-in the limits turn away (429) as throttled, which SlotsSignInsRefusedSurge counts too', async () => {
    testApp = await createDemoApp({
      metrics: { token: TOKEN },
      loginRateLimit: { perAccountAndIp: 2, perIp: 10, windowSeconds: 900 },
    });
    const http = request(testApp.app.handler);
    for (const password of ['wrong-1', 'wrong-2'])
      await http.post('/login').send({ username: 'admin', password }).expect(401);
    for (const password of ['wrong-3', DEMO_PASSWORD]) {
      await http.post('/login').send({ username: 'admin', password }).expect(429);
    }
    const families = await scrape(testApp.app);
    expect(sampleValue(families, 'slots_sign_ins_total', { outcome: 'refused' })).toBe(2);
    expect(sampleValue(families, 'slots_sign_ins_total', { outcome: 'throttled' })).toBe(2);
    expect(sampleValue(families, 'slots_sign_ins_total', { outcome: 'signed-in' })).toBe(0);
  });

  it("tells the 403 refusals apart: a disabled account, a tenant not the account's", async () => {
    testApp = await createDemoApp({ metrics: { token: TOKEN } });
    const http = request(testApp.app.handler);
    await http.post('/login').send({ username: 'admin', password: DEMO_PASSWORD, tenant: 'no-such' }).expect(403);
    await addUser(testApp.app, 'dora', 'dora-password-1', ['acme']);
    await testApp.app.users.setDisabled('dora', true);
    await http.post('/login').send({ username: 'dora', password: 'dora-password-1' }).expect(403);
    const families = await scrape(testApp.app);
    expect(sampleValue(families, 'slots_sign_ins_total', { outcome: 'not-in-tenant' })).toBe(1);
    expect(sampleValue(families, 'slots_sign_ins_total', { outcome: 'disabled' })).toBe(1);
    expect(sampleValue(families, 'slots_sign_ins_total', { outcome: 'no-tenant' })).toBe(0);
    expect(sampleValue(families, 'slots_sign_ins_total', { outcome: 'refused' })).toBe(0);
  });

  it('lets another part of the server add its own metric to the same exposition', async () => {
    testApp = await createDemoApp({ metrics: { token: TOKEN } });
    const loads = testApp.app.metrics.counter({
      name: 'slots_example_loads_total',
      help: 'An example counter another part adds.',
      labelNames: ['remote'] as const,
    });
    loads.inc({ remote: 'team "quoted"\\back' });
    const families = await scrape(testApp.app);
    expect(sampleValue(families, 'slots_example_loads_total', { remote: 'team "quoted"\\back' })).toBe(1);
    expect(() => testApp!.app.metrics.gauge({ name: 'unprefixed', help: 'x' })).toThrow(/must start with "slots_"/);
  });
});
