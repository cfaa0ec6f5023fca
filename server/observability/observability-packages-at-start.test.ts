/**
 * What the server's start loads of the observability packages: prom-client only with metrics on (METRICS_TOKEN or
 * METRICS_PORT), @opentelemetry/* only with tracing on (an OTLP endpoint). Loading them cost about a tenth of a second
 * of every start (bench/startup-phases.ts) of a server that measures and traces nothing, as most do.
 */
import { getFreePort } from '../../testing/system/free-port';
import { filesLoadedAtStart, packageOfFile } from '../../testing/server/files-loaded-at-start';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

const OBSERVABILITY_PACKAGES = /^(prom-client|@opentelemetry\/.+)$/;

jest.setTimeout(60_000);

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('observability-packages-');
});
afterEach(() => dir.remove());

/** The observability packages loaded by a start with `env` over the defaults (a new SQLite file, port 0). */
async function observabilityPackagesOfStart(env: Record<string, string> = {}): Promise<string[]> {
  const packages = new Set((await filesLoadedAtStart(dir.path, env)).map(packageOfFile));
  return [...packages].filter((name) => OBSERVABILITY_PACKAGES.test(name)).sort();
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
