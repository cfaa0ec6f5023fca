/**
 * The alerting rules shipped for operators (`deploy/prometheus/slots-alerts.yaml`): valid for Prometheus (promtool
 * checks them), each alert firing and staying quiet in the cases written beside them (promtool runs them, and every
 * alert has one), and reading only metrics a real server exposes, so that a metric renamed in the server cannot
 * leave an alert that never fires.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { describeWithCommand } from '../../testing/describe-with-command';
import { parsePrometheusText, type MetricFamily } from '../../testing/server/prometheus-text';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { startAppServer, type AppServer } from '../../testing/system/app-server';
import { REPO_ROOT } from '../../testing/system/repo-root';

jest.setTimeout(90_000);

const run = promisify(execFile);
const RULES = path.join(REPO_ROOT, 'deploy', 'prometheus', 'slots-alerts.yaml');
const CASES = path.join(REPO_ROOT, 'deploy', 'prometheus', 'slots-alerts.test.yaml');
const METRICS_TOKEN = 'a-metrics-token-of-the-alerts-test';

interface RuleFile {
  groups: Array<{ rules: Array<{ alert?: string; expr: string }> }>;
}
interface CaseFile {
  tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
}

const rules = parse(fs.readFileSync(RULES, 'utf8')) as RuleFile;
const alerts = rules.groups.flatMap((group) => group.rules);

describeWithCommand(
  'promtool',
  ['--version'],
  'prometheus',
)('the alerting rules, by promtool', () => {
  it('are valid rules', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', RULES]);
    expect(stdout).toContain(`SUCCESS: ${alerts.length} rules found`);
  });

  it('fire, and stay quiet, as their cases say; every alert has a case where it fires', async () => {
    const { stdout } = await run('promtool', ['test', 'rules', CASES]);
    expect(stdout).toContain('SUCCESS');
    const cases = parse(fs.readFileSync(CASES, 'utf8')) as CaseFile;
    const firing = new Set(
      cases.tests.flatMap((test) =>
        (test.alert_rule_test ?? []).filter((one) => one.exp_alerts.length > 0).map((one) => one.alertname),
      ),
    );
    expect(alerts.map((rule) => rule.alert).filter((name) => !firing.has(name!))).toEqual([]);
  });
});

describeWithPostgres()('the metrics the alerting rules read', () => {
  let postgres: PostgresServer;
  let server: AppServer | undefined;
  beforeAll(async () => {
    postgres = await PostgresServer.start();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    postgres?.remove();
  }, 30_000);

  it('are all exposed by a real server (on PostgreSQL, which adds its pool’s)', async () => {
    server = await startAppServer({
      env: {
        DATABASE_URL: await postgres.createDatabase('alerts'),
        SESSION_SECRET: 'a-session-secret-of-the-alerts-test',
        DATABASE_PATH: undefined,
        METRICS_TOKEN,
      },
    });
    const scraped = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    const families = parsePrometheusText(await scraped.text());

    const read = new Set(alerts.flatMap((rule) => rule.expr.match(/\bslots_[a-z_]+/g) ?? []));
    expect(read.size).toBeGreaterThan(5);
    const missing = [...read].filter((name) => !isExposed(name, families));
    expect(missing).toEqual([]);
  });
});

/** Whether `name` is a family of the exposition, or a histogram's `_bucket`, `_sum` or `_count`. */
function isExposed(name: string, families: ReadonlyMap<string, MetricFamily>): boolean {
  if (families.has(name)) return true;
  const histogram = /^(.*)_(bucket|sum|count)$/.exec(name);
  return histogram !== null && families.get(histogram[1]!)?.type === 'histogram';
}
