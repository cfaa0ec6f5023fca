/**
 * What the server's start loads of the observability packages: prom-client only with metrics on (METRICS_TOKEN or
 * METRICS_PORT), @opentelemetry/* only with tracing on (an OTLP endpoint). Loading them cost about a tenth of a second
 * of every start (bench/startup-phases.ts) of a server that measures and traces nothing, as most do.
 *
 * The real start-up in a child process, in server/main.ts's order (tracing first, then startServer with the demo),
 * until it listens; the child then lists the packages in its module cache and exits.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { getFreePort } from '../../testing/system/free-port';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const OBSERVABILITY_PACKAGES = /^(prom-client|@opentelemetry\/.+)$/;

jest.setTimeout(60_000);

/** The child's code: main.ts's start, then the packages its module cache holds (by name, once each), as JSON. */
const START_AND_LIST = `
require('./server/observability/start-tracing');
const { startServer } = require('./server/start-server');
const { withDemo } = require('./server/demo');
startServer(process.env, withDemo()).then(
  () => {
    const names = Object.keys(require.cache).flatMap((file) => {
      const found = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file);
      return found ? [found[1]] : [];
    });
    process.stdout.write('PACKAGES ' + JSON.stringify([...new Set(names)]) + '\\n');
    process.exit(0);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
`;

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('observability-packages-');
});
afterEach(() => dir.remove());

/** The observability packages loaded by a start with `env` over the defaults (a new SQLite file, port 0). */
async function observabilityPackagesOfStart(env: Record<string, string> = {}): Promise<string[]> {
  const blank = Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => /^(OTEL_|METRICS_|REDIS_URL$|DATABASE_URL$|REMOTES_CONFIG$)/.test(name))
      .map((name) => [name, '']),
  );
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', START_AND_LIST], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...blank,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_PATH: path.join(dir.path, 'app.db'),
      DEMO_PASSWORD: 'observability-packages-password',
      ...env,
    },
    maxBuffer: 10 * 1024 * 1024,
  });
  const line = stdout.split('\n').find((text) => text.startsWith('PACKAGES '));
  if (line === undefined) throw new Error(`The start listed no packages:\n${stdout}`);
  const packages = JSON.parse(line.slice('PACKAGES '.length)) as string[];
  // A sanity check of the listing itself: the start did load its packages, express among them.
  expect(packages).toContain('express');
  return packages.filter((name) => OBSERVABILITY_PACKAGES.test(name)).sort();
}

describe('the observability packages a start loads', () => {
  it('with metrics and tracing off (the default): none', async () => {
    expect(await observabilityPackagesOfStart()).toEqual([]);
  });

  it('with metrics and tracing on: prom-client and the OpenTelemetry SDK', async () => {
    // An endpoint no one listens on: the child exits before a batch of spans is due.
    const endpoint = `http://127.0.0.1:${await getFreePort()}`;
    const packages = await observabilityPackagesOfStart({
      METRICS_TOKEN: 'a-metrics-token-of-the-packages-test',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    });
    expect(packages).toEqual(
      expect.arrayContaining([
        'prom-client',
        '@opentelemetry/api',
        '@opentelemetry/core',
        '@opentelemetry/sdk-trace-node',
        '@opentelemetry/instrumentation-http',
      ]),
    );
  });
});
