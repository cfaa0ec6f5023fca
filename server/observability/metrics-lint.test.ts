/**
 * `GET /metrics` of a real app with every figure sampled, on SQLite always and on PostgreSQL where it is installed (its
 * pool's figures): with traffic, sign-ins, a remotes reload, a released remote in a progressive rollout (its canary,
 * its step and share) and the loads its slots reported. Prometheus' own linter reads it (`promtool check metrics`: a
 * counter named `_total`, no other kind so named, help on every family, base units); the operators' guide lists each
 * family with its labels, type and unit (docs/operators/metrics-and-traces.md), and every metric any guide names, in a
 * table, the prose or a query, is one the server exposes, with the labels the guide gives it or groups it by, and so
 * is every metric the Prometheus rule files (deploy/prometheus/*.yaml) read; a value either selects of a label whose
 * values are a closed set is one of them: neither the names nor the guides nor the alerts can drift.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { SLOT_EVENTS_PATH } from '../../shared';
import { describeWithCommand } from '../../testing/describe-with-command';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { closedLabelValues } from '../../testing/server/metrics-closed-labels';
import {
  guideMetrics,
  labelsOf,
  mentionFindings,
  readGuides,
  readRuleFiles,
  unitOf,
  type GuideRow,
} from '../../testing/server/metrics-guides';
import { parsePrometheusText, type MetricFamily } from '../../testing/server/prometheus-text';
import type { StorageSettings } from '../storage/open-storage';
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

describe('GET /metrics of an app on SQLite with every figure sampled', () => {
  let exposition = '';
  beforeAll(async () => {
    exposition = await exposeEveryFigure(undefined);
  });
  checkExposition('sqlite', () => exposition);
});

describeWithPostgres()('GET /metrics of an app on PostgreSQL with every figure sampled', () => {
  const postgres = usePostgresDatabases('metrics_lint', { poolSize: 4, statementTimeoutMs: 5000 });
  let exposition = '';
  beforeAll(async () => {
    exposition = await exposeEveryFigure(await postgres.create());
  });
  checkExposition('postgres', () => exposition);
});

/**
 * `GET /metrics` of a real app with every figure sampled: traffic, sign-ins, a remotes reload, a released remote in a
 * progressive rollout (its canary, its step and share) and the loads its slots reported; on PostgreSQL, its pool's
 * figures too. SQLite unless `storage` says otherwise.
 */
async function exposeEveryFigure(storage: StorageSettings | undefined): Promise<string> {
  const origin = await startDescriptorOrigin({ name: 'team_billing', components: ['InvoiceBanner'] });
  try {
    const testApp = await createTestApp({
      ...(storage ? { storage } : {}),
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
      return (await http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;
    } finally {
      await testApp.close();
    }
  } finally {
    await origin.close();
  }
}

/**
 * What is checked of the exposition of an app on `engine`: on SQLite, the figures the guide's table says are
 * PostgreSQL's only are absent, and the guides' mentions of them are read against the table's row (which the
 * PostgreSQL suite, run in CI, reads against the real figures).
 */
function checkExposition(engine: 'sqlite' | 'postgres', read: () => string): void {
  const families = (): Map<string, MetricFamily> => parsePrometheusText(read());
  const table = (): GuideRow[] => guideMetrics(fs.readFileSync(GUIDE, 'utf8'));
  const postgresOnly = (): Set<string> => new Set(table().flatMap((row) => (row.postgresOnly ? [row.name] : [])));
  const expected = (): GuideRow[] =>
    table().filter((row) => !row.name.endsWith('*') && (engine === 'postgres' || !row.postgresOnly));

  it('samples every figure it means to read', () => {
    const sampledHere = SAMPLED.filter((name) => engine === 'postgres' || !postgresOnly().has(name));
    for (const name of sampledHere) {
      const sampled = (families().get(name)?.samples.length ?? 0) > 0;
      expect({ name, sampled }).toEqual({ name, sampled: true });
    }
  });

  describeWithCommand(
    'promtool',
    ['--version'],
    'prometheus',
  )('by promtool check metrics', () => {
    it('has no finding on the server’s own figures', async () => {
      expect(await promtoolCheckMetrics(read())).toEqual(PROM_CLIENT_FINDINGS);
    });
  });

  it('is listed in the operators’ guide, each family with its labels, and the guide lists no other', () => {
    const exposed = [...families().values()].filter(
      (family) => !STANDARD_PREFIXES.some((prefix) => family.name.startsWith(prefix)),
    );
    expect(Object.fromEntries(exposed.map((family) => [family.name, labelsOf(family)]))).toEqual(
      Object.fromEntries(expected().map((row) => [row.name, row.labels])),
    );
    for (const prefix of STANDARD_PREFIXES) expect(table().some((row) => row.name === `${prefix}*`)).toBe(true);
  });

  it('has the type and unit the guide’s table gives each family', () => {
    const all = [...families().values()];
    for (const row of table()) {
      if (engine === 'sqlite' && row.postgresOnly) continue;
      const matching = row.name.endsWith('*')
        ? all.filter((family) => row.row.some((prefix) => family.name.startsWith(prefix.slice(0, -1))))
        : all.filter((family) => family.name === row.name);
      const exposedTypes = [...new Set(matching.map((family) => family.type))].sort();
      expect({ name: row.name, types: exposedTypes }).toEqual({ name: row.name, types: row.types });
      if (row.name.endsWith('*')) continue; // prom-client's units are in its names
      // A unit in the name is the one stated; one stated of a name without any is its help's (a share in percent).
      const unit = unitOf(row.name);
      const help = (matching[0]?.help ?? '').toLowerCase();
      const statedRight =
        row.unit === unit || (unit === undefined && row.unit !== undefined && help.includes(row.unit));
      expect({ name: row.name, unit: row.unit, statedRight }).toEqual({
        name: row.name,
        unit: row.unit,
        statedRight: true,
      });
    }
  });

  it('is every metric the guides and rule files name, with the labels and closed labels’ values they give or group by', () => {
    const known = families();
    if (engine === 'sqlite') {
      // Stand-ins for the PostgreSQL-only families, as the table gives them (checked against the real ones there).
      for (const row of table().filter((r) => r.postgresOnly)) {
        known.set(row.name, {
          name: row.name,
          type: row.types[0]!,
          help: '',
          samples: [{ name: row.name, labels: Object.fromEntries(row.labels.map((label) => [label, ''])), value: 0 }],
        });
      }
    }
    expect(mentionFindings(new Map([...readGuides(), ...readRuleFiles()]), known, closedLabelValues(known))).toEqual(
      [],
    );
  });
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
