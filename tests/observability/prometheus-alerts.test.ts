/**
 * The alerting rules shipped for operators (`deploy/prometheus/slots-alerts.yaml`): valid for Prometheus (promtool
 * checks them), each alert firing and staying quiet in the cases written beside them (promtool runs them, and every
 * alert has one), and reading only metrics a real server exposes, so that a metric renamed in the server cannot
 * leave an alert that never fires. The example configuration beside them, and the operators' guide's queries, run by a
 * real Prometheus scraping a real server.
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
import { waitUntil } from '../../testing/server/wait-until';
import { getFreePort } from '../../testing/system/free-port';
import { startServerProcess, type ServerProcess } from '../../testing/system/server-process';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

jest.setTimeout(90_000);

const run = promisify(execFile);
const RULES = path.join(REPO_ROOT, 'deploy', 'prometheus', 'slots-alerts.yaml');
const CASES = path.join(REPO_ROOT, 'deploy', 'prometheus', 'slots-alerts.test.yaml');
const EXAMPLE_CONFIG = path.join(REPO_ROOT, 'deploy', 'prometheus', 'prometheus.example.yml');
const GUIDE = path.join(REPO_ROOT, 'docs', 'operators', 'metrics-and-traces.md');
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

describeWithCommand(
  'prometheus',
  ['--version'],
  'prometheus',
)('the example Prometheus configuration', () => {
  let folder: TempDir | undefined;
  let server: AppServer | undefined;
  let prometheus: ServerProcess | undefined;
  afterEach(async () => {
    await prometheus?.stop();
    await server?.stop();
    folder?.remove();
  });

  it('is valid beside the rules and its token file, scrapes a real server with that token, and answers the guide’s queries', async () => {
    // As the operators' guide says: the example, the rules and the token in one folder.
    folder = makeTempDir('slots-prometheus-');
    fs.copyFileSync(RULES, path.join(folder.path, 'slots-alerts.yaml'));
    fs.writeFileSync(path.join(folder.path, 'slots-token'), `${METRICS_TOKEN}\n`, { mode: 0o600 });
    const example = fs.readFileSync(EXAMPLE_CONFIG, 'utf8');
    fs.writeFileSync(path.join(folder.path, 'prometheus.yml'), example);
    const checked = await run('promtool', ['check', 'config', 'prometheus.yml'], { cwd: folder.path });
    expect(checked.stdout).toContain('SUCCESS: prometheus.yml is valid prometheus config file syntax');

    server = await startAppServer({ env: { METRICS_TOKEN } });
    // Only the hosts and the pace differ from the example: this server, scraped every second.
    const config = example
      .replace("targets: ['app-1:3000', 'app-2:3000']", `targets: ['${new URL(server.url).host}']`)
      .replace(/^( {2}(scrape|evaluation)_interval:) 15s$/gm, '$1 1s');
    expect(config).toContain(new URL(server.url).host);
    expect(config.match(/ 1s$/gm)).toHaveLength(2);
    fs.writeFileSync(path.join(folder.path, 'prometheus.yml'), config);
    const port = await getFreePort();
    prometheus = await startServerProcess({
      name: 'prometheus',
      command: 'prometheus',
      args: [
        `--config.file=${path.join(folder.path, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(folder.path, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      port,
      readyPath: '/-/ready',
      cwd: folder.path,
    });

    const query = async (expr: string) => {
      const answer = await fetch(`${prometheus!.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      return ((await answer.json()) as { data: { result: Array<{ value: [number, string] }> } }).data.result;
    };
    await waitUntil(
      async () => (await query('up{job="slots"} == 1')).length === 1,
      30_000,
      'Prometheus scraping the server with the token',
      250,
    );
    expect(await query('slots_build_info{job="slots"}')).toHaveLength(1);
    // The guide's queries: each one taken by Prometheus, on metrics the server exposes.
    const queries = documentedQueries();
    expect(queries.length).toBeGreaterThan(5);
    const scraped = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    const families = parsePrometheusText(await scraped.text());
    for (const expr of queries) {
      const answer = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      expect({ expr, answer: answer.status }).toEqual({ expr, answer: 200 });
      const missing = (expr.match(/\bslots_[a-z0-9_]+/g) ?? []).filter((name) => !isExposed(name, families));
      expect({ expr, missing }).toEqual({ expr, missing: [] });
    }

    const rulesAnswer = await fetch(`${prometheus.url}/api/v1/rules`);
    const loaded = ((await rulesAnswer.json()) as { data: { groups: Array<{ rules: Array<{ health: string }> }> } })
      .data.groups;
    expect(loaded.flatMap((group) => group.rules).map((rule) => rule.health)).toEqual(alerts.map(() => 'ok'));
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

/** The queries of the guide's `promql` block: its `#` lines left out, a query's continued lines joined. */
function documentedQueries(): string[] {
  const block = /```promql\n([\s\S]*?)```/.exec(fs.readFileSync(GUIDE, 'utf8'));
  if (block === null) throw new Error(`no promql block in ${GUIDE}`);
  return block[1]!
    .split(/\n\s*\n/)
    .map((query) =>
      query
        .split('\n')
        .filter((line) => !line.trimStart().startsWith('#'))
        .join(' ')
        .trim(),
    )
    .filter((query) => query !== '');
}
