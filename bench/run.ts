/**
 * `npm run bench`: every benchmark of issue 6, each server a production process of its own, each figure beside
 * its baseline measured in the same run. Prints the Markdown report and writes it with the JSON to bench/results/.
 * Exits 1 when a benchmark could not run (a non-2xx answer, a failed build); a missed goal is reported, not fatal.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PostgresServer } from '../testing/server/postgres-server';
import { RedisServerProcess } from '../testing/system/redis-server-process';
import type { BenchContext } from './harness/bench-context';
import { parseBenchOptions, type BenchmarkName } from './harness/bench-options';
import { summariseProfiles } from './harness/cpu-profile-summary';
import type { BenchResults } from './report/bench-results';
import { renderMarkdown } from './report/render-markdown';
import { currentLoadAverage, describeMachine, writeResults } from './report/write-results';
import {
  BENCH_DIST_DIR,
  BUNDLED_DIST_DIR,
  buildFrontEnd,
  PLAIN_DIST_DIR,
  PRODUCT_DIST_DIR,
} from './suites/front-end-build';
import { benchListScaling } from './suites/list-scaling';
import { benchPageLoads } from './suites/page-loads';
import { benchMetaThroughput } from './suites/meta-throughput';
import { benchObservabilityOverhead } from './suites/observability-overhead';
import { benchPayloadSize, REGISTRY_SIZES } from './suites/payload-sizes';
import { benchReleasesThroughput } from './suites/releases-throughput';
import { benchRulesThroughput } from './suites/rules-throughput';
import { benchServerStartup } from './suites/server-startup';
import { benchSlotRegistration } from './suites/slot-registration';
import { benchSlotsThroughput } from './suites/slots-throughput';

const RESULTS_DIR = path.join(__dirname, 'results');

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const options = parseBenchOptions(args);
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const logDir = path.join(RESULTS_DIR, 'logs', startedAt.replace(/[:.]/g, '-'));
  await mkdir(logDir, { recursive: true });
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'slots-bench-'));
  const context: BenchContext = {
    plans: options.plans,
    workDir,
    logDir,
    cpuProfileDir: options.cpuProfile ? path.join(logDir, 'profiles') : null,
  };
  const results: BenchResults = {
    startedAt,
    durationSeconds: 0,
    args,
    machine: describeMachine(),
    plans: options.plans,
    throughput: [],
    payloadSizes: [],
    registration: [],
    startup: [],
    pageLoads: [],
    bundles: [],
    failures: [],
  };
  const wanted = (name: BenchmarkName): boolean => options.only.has(name);
  let redis: RedisServerProcess | undefined;
  let postgres: PostgresServer | undefined;

  const step = async (label: string, work: () => Promise<void>): Promise<boolean> => {
    const stepStarted = Date.now();
    log(`${label}…`);
    try {
      await work();
      log(`${label}: done in ${((Date.now() - stepStarted) / 1000).toFixed(0)} s`);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.failures.push({ benchmark: label, message: message.split('\n').slice(0, 12).join('\n') });
      log(`${label}: FAILED\n${message}`);
      return false;
    }
  };

  try {
    // --skip-build reuses the bench's previous build, when there is one.
    let built =
      options.skipBuild &&
      existsSync(path.join(PRODUCT_DIST_DIR, 'host', 'index.html')) &&
      existsSync(path.join(BUNDLED_DIST_DIR, 'host', 'index.html')) &&
      existsSync(path.join(PLAIN_DIST_DIR, 'host', 'index.html'));
    if (!options.skipBuild && (wanted('bundles') || wanted('pages'))) {
      built = await step('front-end build with bundle budgets', async () => {
        const build = await buildFrontEnd();
        results.bundles = build.bundles;
        if (build.errors.length > 0) throw new Error(build.errors.join('\n'));
      });
    }
    if (wanted('slots')) {
      await step('GET /slots vs bare route', async () => {
        results.throughput.push(...(await benchSlotsThroughput(context)));
      });
    }
    if (wanted('observability')) {
      await step('GET /slots with metrics and traces on vs off', async () => {
        results.throughput.push(...(await benchObservabilityOverhead(context)));
      });
    }
    if (wanted('meta-sqlite')) {
      await step('GET /meta on SQLite sessions', async () => {
        results.throughput.push(...(await benchMetaThroughput(context, { kind: 'sqlite' })));
      });
    }
    if (wanted('meta-redis')) {
      await step('GET /meta on Redis sessions', async () => {
        redis = await RedisServerProcess.start();
        results.throughput.push(...(await benchMetaThroughput(context, { kind: 'redis', url: redis.url })));
      });
    }
    if (wanted('meta-postgres')) {
      await step('GET /meta on PostgreSQL', async () => {
        postgres = await PostgresServer.start();
        const url = await postgres.createDatabase('bench_server');
        const baselineUrl = await postgres.createDatabase('bench_baseline');
        results.throughput.push(...(await benchMetaThroughput(context, { kind: 'postgres', url, baselineUrl })));
      });
    }
    if (wanted('releases')) {
      await step('GET /meta and the signed-in page with releases chosen per request', async () => {
        results.throughput.push(...(await benchReleasesThroughput(context)));
      });
    }
    if (wanted('rules')) {
      await step('GET /meta with 1,000 ruled slots and 100 releases', async () => {
        results.throughput.push(...(await benchRulesThroughput(context)));
      });
    }
    if (wanted('sizes')) {
      for (const size of REGISTRY_SIZES) {
        await step(`GET /slots and /meta with ${size} extra slots`, async () => {
          results.payloadSizes.push(...(await benchPayloadSize(context, size)));
        });
      }
    }
    if (wanted('registration')) {
      await step('registerSlots at 500 and 5,000 slots', async () => {
        results.registration = benchSlotRegistration();
      });
    }
    if (wanted('startup')) {
      await step('server start to ready and idle memory, compiled vs tsx', async () => {
        // The product's build when the bench made one; else whatever dist/ holds (the start does not need it).
        const frontendDir = existsSync(path.join(PRODUCT_DIST_DIR, 'host'))
          ? PRODUCT_DIST_DIR
          : path.join(__dirname, '..', 'dist');
        results.startup = await benchServerStartup(context, frontendDir);
      });
    }
    if (wanted('lists')) {
      await step('GET /api/resources/:name/records at 100 and 100,000 records', async () => {
        results.throughput.push(...(await benchListScaling(context)));
      });
    }
    if (wanted('pages')) {
      if (built) {
        await step('pages in Chromium: the product, bundled and plain Module Federation', async () => {
          results.pageLoads = await benchPageLoads(context, undefined, options.pages);
        });
      } else {
        results.failures.push({
          benchmark: 'pages in Chromium: the product, bundled and plain Module Federation',
          message: options.skipBuild
            ? `skipped: no previous bench build in ${path.relative(process.cwd(), BENCH_DIST_DIR)} (run without --skip-build once)`
            : 'skipped: the front-end build failed',
        });
      }
    }
  } finally {
    await redis?.stop();
    await postgres?.remove();
    await rm(workDir, { recursive: true, force: true });
  }

  results.durationSeconds = (Date.now() - started) / 1000;
  results.machine.loadAverage.end = currentLoadAverage();
  const written = await writeResults(results, RESULTS_DIR, { example: options.example });
  process.stdout.write(`\n${renderMarkdown(results)}\n`);
  log(`results: ${path.relative(process.cwd(), written.markdown)} and ${path.relative(process.cwd(), written.json)}`);
  if (written.example) log(`example: ${path.relative(process.cwd(), written.example)}`);
  log(`server logs: ${path.relative(process.cwd(), logDir)}`);
  if (options.cpuProfile) {
    const summaries = await summariseProfiles(path.join(logDir, 'profiles'));
    log(
      `CPU profiles of the target servers, with a self-time summary each: ${summaries.length} in ${path.relative(process.cwd(), path.join(logDir, 'profiles'))}`,
    );
  }
  log(`total ${results.durationSeconds.toFixed(0)} s`);
  return results.failures.length > 0 ? 1 : 0;
}

function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
