/**
 * `GET /metrics` as Prometheus' own linter reads it (`promtool check metrics`): a counter named `_total`, no other
 * kind so named, help on every family, base units. Read over HTTP from an app with traffic, sign-ins, a released
 * remote with a canary and the loads its slots reported, so that every family has samples to read.
 */
import { spawn } from 'node:child_process';
import request from 'supertest';
import { SLOT_EVENTS_PATH } from '../../shared';
import { describeWithCommand } from '../../testing/describe-with-command';
import {
  placedSlotsOptions,
  publishAndActivate,
  slotLoadEvents,
  startDescriptorOrigin,
  type DescriptorOrigin,
} from '../../testing/server/released-remote';
import { createTestApp, DEMO_PASSWORD, signedInAgent, type TestApp } from '../../testing/server/test-app';

const TOKEN = 'a-metrics-token-of-the-lint-test';
const SLOT = { remote: 'team_billing', component: 'InvoiceBanner', location: 'header-banner' };

/**
 * What promtool says of prom-client's default Node.js figures, not of ours: three gauges it names `_total` (the
 * count of active handles, requests and resources, beside the same figures by type). prom-client keeps those names
 * for the dashboards made for them (prometheus/client_js#283, open for its next major version); ours keep them too,
 * prefixed, rather than break those dashboards for a lint.
 */
const PROM_CLIENT_FINDINGS = [
  'slots_nodejs_active_handles_total non-counter metrics should not have "_total" suffix',
  'slots_nodejs_active_requests_total non-counter metrics should not have "_total" suffix',
  'slots_nodejs_active_resources_total non-counter metrics should not have "_total" suffix',
];

let origin: DescriptorOrigin | undefined;
let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  await origin?.close();
});

describeWithCommand(
  'promtool',
  ['--version'],
  'prometheus',
)('GET /metrics, by promtool check metrics', () => {
  it('has no finding on the server’s own figures', async () => {
    origin = await startDescriptorOrigin({ name: 'team_billing', components: ['InvoiceBanner'] });
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: origin.remotesConfig },
      metrics: { token: TOKEN },
      slotEvents: { canary: { enabled: false } },
      ...placedSlotsOptions([SLOT]),
    });
    const { app } = testApp;
    await publishAndActivate(app, 'team_billing', origin.url, ['1.0.0', '2.0.0']);
    const operator = await signedInAgent(app, 'operator');
    await operator
      .post(SLOT_EVENTS_PATH)
      .send({ events: slotLoadEvents(SLOT, 10, 3) })
      .expect(204);
    await operator.post('/api/remotes/team_billing/canary').send({ version: '2.0.0', percent: 20 }).expect(200);
    await app.releases.snapshot.refresh();
    const http = request(app.handler);
    await http.get('/slots').expect(200);
    await http.get('/no-such-file-3f1a.js').expect(404);
    await http
      .post('/login')
      .send({ username: 'admin', password: `${DEMO_PASSWORD}x` })
      .expect(401);
    await operator.post('/logout').expect(204);

    const exposition = (await http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;
    // Every figure this test means to lint is there with samples, not only its HELP and TYPE.
    for (const name of [
      'slots_http_request_duration_seconds_bucket',
      'slots_sign_ins_total',
      'slots_sign_outs_total',
      'slots_sessions_active',
      'slots_remote_descriptor_status',
      'slots_slot_loads_total',
      'slots_slot_events_dropped_total',
      'slots_canary_percent',
      'slots_canary_auto_rollbacks_total',
      'slots_readiness_check',
      'slots_build_info',
    ]) {
      expect({ name, sampled: new RegExp(`^${name}[{ ]`, 'm').test(exposition) }).toEqual({ name, sampled: true });
    }
    const findings = await promtoolCheckMetrics(exposition);
    expect(findings).toEqual(PROM_CLIENT_FINDINGS);
  });
});

/** `promtool check metrics` of `exposition`: its findings, one a line (it exits 3 when there is any, 1 when it cannot read it). */
function promtoolCheckMetrics(exposition: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 && code !== 3) reject(new Error(`promtool check metrics exited ${code}: ${output}`));
      else
        resolve(
          output
            .split('\n')
            .filter((line) => line.trim() !== '')
            .sort(),
        );
    });
    child.stdin.end(exposition);
  });
}
