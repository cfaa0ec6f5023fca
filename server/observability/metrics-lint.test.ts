/**
 * `GET /metrics` of a real app with every figure sampled: on PostgreSQL (its pool's figures), with traffic, sign-ins,
 * a remotes reload, a released remote in a progressive rollout (its canary, its step and share) and the loads its
 * slots reported. Prometheus' own linter reads it (`promtool check metrics`: a counter named `_total`, no other kind
 * so named, help on every family, base units), and the operators' guide lists each family with its labels
 * (docs/operators/metrics-and-traces.md), so neither the names nor the guide can drift.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { SLOT_EVENTS_PATH } from '../../shared';
import { describeWithCommand } from '../../testing/describe-with-command';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { parsePrometheusText, type MetricFamily } from '../../testing/server/prometheus-text';
import {
  placedSlotsOptions,
  publishAndActivate,
  slotLoadEvents,
  startDescriptorOrigin,
} from '../../testing/server/released-remote';
import { createTestApp, DEMO_PASSWORD, signedInAgent } from '../../testing/server/test-app';
import { REPO_ROOT } from '../../testing/system/repo-root';

jest.setTimeout(60_000);

const TOKEN = 'a-metrics-token-of-the-lint-test';
const SLOT = { remote: 'team_billing', component: 'InvoiceBanner', location: 'header-banner' };
const GUIDE = path.join(REPO_ROOT, 'docs', 'operators', 'metrics-and-traces.md');

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

/** The figures this test means to read, each with samples, not only its HELP and TYPE. */
const SAMPLED = [
  'slots_http_request_duration_seconds',
  'slots_sign_ins_total',
  'slots_sign_outs_total',
  'slots_sessions_active',
  'slots_db_pool_connections',
  'slots_db_pool_max_connections',
  'slots_remote_descriptor_status',
  'slots_slot_loads_total',
  'slots_slot_events_dropped_total',
  'slots_canary_percent',
  'slots_canary_auto_rollbacks_total',
  'slots_canary_auto_rollbacks_seen_total',
  'slots_rollout_step',
  'slots_rollout_share',
  'slots_readiness_check',
  'slots_remotes_config_reloads_total',
  'slots_build_info',
];

/** prom-client's standard figures: the guide names them by prefix, as prom-client names them. */
const STANDARD_PREFIXES = ['slots_process_', 'slots_nodejs_'];

describeWithPostgres()('GET /metrics of an app on PostgreSQL with every figure sampled', () => {
  const postgres = usePostgresDatabases('metrics_lint', { poolSize: 4, statementTimeoutMs: 5000 });
  let exposition = '';

  beforeAll(async () => {
    const origin = await startDescriptorOrigin({ name: 'team_billing', components: ['InvoiceBanner'] });
    const testApp = await createTestApp({
      storage: await postgres.create(),
      env: { REMOTES_CONFIG: origin.remotesConfig },
      metrics: { token: TOKEN },
      // Publishing fetches each release's manifest from the origin: generous, for a busy machine.
      remoteDescriptorTimeoutMs: 10_000,
      slotEvents: { canary: { enabled: false } },
      ...placedSlotsOptions([SLOT]),
    });
    try {
      const { app } = testApp;
      const operator = await publishAndActivate(app, 'team_billing', origin.url, ['1.0.0', '2.0.0']);
      await operator
        .post(SLOT_EVENTS_PATH)
        .send({ events: slotLoadEvents(SLOT, 10, 3) })
        .expect(204);
      // A progressive rollout of 2.0.0: its first step is the canary.
      await operator
        .post('/api/remotes/team_billing/rollouts')
        .send({
          version: '2.0.0',
          steps: [
            { share: 10, minutes: 60 },
            { share: 100, minutes: 0 },
          ],
        })
        .expect(201);
      await app.releases.snapshot.refresh();
      expect(await app.remotes.reloadConfig()).toBe(true);
      const http = request(app.handler);
      await http.get('/slots').expect(200);
      await http.get('/no-such-file-3f1a.js').expect(404);
      await http
        .post('/login')
        .send({ username: 'admin', password: `${DEMO_PASSWORD}x` })
        .expect(401);
      await (await signedInAgent(app, 'operator')).post('/logout').expect(204);
      exposition = (await http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;
    } finally {
      await testApp.close();
      await origin.close();
    }
  });

  it('samples every figure it means to read', () => {
    const families = parsePrometheusText(exposition);
    for (const name of SAMPLED) {
      const sampled = (families.get(name)?.samples.length ?? 0) > 0;
      expect({ name, sampled }).toEqual({ name, sampled: true });
    }
  });

  describeWithCommand(
    'promtool',
    ['--version'],
    'prometheus',
  )('by promtool check metrics', () => {
    it('has no finding on the server’s own figures', async () => {
      expect(await promtoolCheckMetrics(exposition)).toEqual(PROM_CLIENT_FINDINGS);
    });
  });

  it('is listed in the operators’ guide, each family with its labels, and the guide lists no other', () => {
    const listed = guideMetrics(fs.readFileSync(GUIDE, 'utf8'));
    const exposed = [...parsePrometheusText(exposition).values()].filter(
      (family) => !STANDARD_PREFIXES.some((prefix) => family.name.startsWith(prefix)),
    );
    expect(Object.fromEntries(exposed.map((family) => [family.name, labelsOf(family)]))).toEqual(
      Object.fromEntries([...listed].filter(([name]) => !name.endsWith('*'))),
    );
    for (const prefix of STANDARD_PREFIXES) expect(listed.has(`${prefix}*`)).toBe(true);
  });
});

/**
 * The metrics table of the guide (the first column of the table under `## Metrics`): each name with its labels,
 * sorted (`slots_sign_ins_total{outcome}` -> `['outcome']`); `slots_process_*` stays as written.
 */
function guideMetrics(guide: string): Map<string, string[]> {
  const section = guide.slice(guide.indexOf('## Metrics'));
  const listed = new Map<string, string[]>();
  const table = /^\| metric +\|[^\n]*\n\|[- |]+\n((?:\|[^\n]*\n)+)/m.exec(section);
  if (!table) throw new Error(`No metrics table under "## Metrics" in ${GUIDE}.`);
  for (const row of table[1]!.split('\n').filter(Boolean)) {
    const first = row.split('|')[1]!;
    for (const [, name, labels] of first.matchAll(/`(slots_[a-z_*]+)(?:\{([a-z_,]*)\})?`/g)) {
      listed.set(name!, labels ? labels.split(',').sort() : []);
    }
  }
  return listed;
}

/** The labels of a family's samples, sorted; a histogram's `le` is the format's, not ours. */
function labelsOf(family: MetricFamily): string[] {
  const names = new Set(family.samples.flatMap((sample) => Object.keys(sample.labels)));
  if (family.type === 'histogram') names.delete('le');
  if (family.type === 'summary') names.delete('quantile');
  return [...names].sort();
}

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
