import { readFile } from 'node:fs/promises';
import type { ServerProcess } from '../../testing/system/server-process';
import { logPath, type BenchContext } from '../harness/bench-context';
import { startBenchProcess } from '../harness/bench-process';
import {
  compareAlternating,
  LOAD_GENERATORS,
  type LoadGeneratorName,
  type LoadRunner,
} from '../harness/compare-alternating';
import { median } from '../harness/median';
import { startRealServer } from '../harness/real-server';
import type { ThroughputResult } from '../report/bench-results';

/** `/metrics` on: at most 10 % fewer answers on the cheapest route, where a fixed cost per request shows most. */
export const METRICS_MIN_RATIO = 0.9;
/** Every request traced (a span per request and per Express router and handler, batched to a collector). */
export const TRACING_MIN_RATIO = 0.5;
/** One request in ten traced: a request sampled out should cost close to nothing (issue 52). */
export const SAMPLED_TRACING_MIN_RATIO = 0.8;
/** The sampling the operators' guide suggests for a busy server: one trace in ten (docs/operators/traces.md). */
const SAMPLED_TRACING_ENV = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };

const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** The encoding spans are sent in when the operator picks protobuf: the cheaper one (docs/operators/performance.md). */
const PROTOBUF_ENV = { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' };

/**
 * What observability costs `GET /slots`, the cheapest route: the server with `/metrics` on (METRICS_TOKEN: a
 * histogram observation per request) and with traces sent to a local OTLP/HTTP endpoint (every request traced, and
 * one in ten; in JSON, the default, and in protobuf), each against the same server with both off (the default),
 * measured alternately with each load generator.
 */
export async function benchObservabilityOverhead(context: BenchContext): Promise<ThroughputResult[]> {
  let off: ServerProcess | undefined;
  let metrics: ServerProcess | undefined;
  let tracing: ServerProcess | undefined;
  let sampled: ServerProcess | undefined;
  let protobuf: ServerProcess | undefined;
  let sampledProtobuf: ServerProcess | undefined;
  let receiver: ServerProcess | undefined;
  try {
    off = await startRealServer(context, { name: 'observability-off' });
    metrics = await startRealServer(context, { name: 'observability-metrics', env: { METRICS_TOKEN } });
    receiver = await startBenchProcess({
      name: 'OTLP receiver',
      entry: 'bench/servers/discarding-otlp-receiver.ts',
      env: {},
      logFile: logPath(context, 'observability-receiver'),
    });
    tracing = await startRealServer(context, {
      name: 'observability-tracing',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    });
    sampled = await startRealServer(context, {
      name: 'observability-tracing-sampled',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...SAMPLED_TRACING_ENV },
    });
    protobuf = await startRealServer(context, {
      name: 'observability-tracing-protobuf',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...PROTOBUF_ENV },
    });
    sampledProtobuf = await startRealServer(context, {
      name: 'observability-tracing-sampled-protobuf',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...SAMPLED_TRACING_ENV, ...PROTOBUF_ENV },
    });
    const bodyBytes = Buffer.byteLength(await (await fetch(`${off.url}/slots`)).text());
    const results: ThroughputResult[] = [];
    const sides = [
      {
        server: metrics,
        name: '`GET /slots` with `/metrics` on',
        minimumRatio: METRICS_MIN_RATIO,
        env: 'METRICS_TOKEN',
      },
      {
        server: tracing,
        name: '`GET /slots` with traces sent (OTLP/HTTP JSON, the default)',
        minimumRatio: TRACING_MIN_RATIO,
        env: 'OTEL_EXPORTER_OTLP_ENDPOINT (a local receiver)',
      },
      {
        server: sampled,
        name: '`GET /slots` with traces sent (OTLP/HTTP JSON), one request in ten sampled',
        minimumRatio: SAMPLED_TRACING_MIN_RATIO,
        env: 'OTEL_EXPORTER_OTLP_ENDPOINT (a local receiver), OTEL_TRACES_SAMPLER=parentbased_traceidratio and OTEL_TRACES_SAMPLER_ARG=0.1',
      },
      {
        server: protobuf,
        name: '`GET /slots` with traces sent (OTLP/HTTP protobuf)',
        minimumRatio: TRACING_MIN_RATIO,
        env: 'OTEL_EXPORTER_OTLP_ENDPOINT (a local receiver) and OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf',
      },
      {
        server: sampledProtobuf,
        name: '`GET /slots` with traces sent (OTLP/HTTP protobuf), one request in ten sampled',
        minimumRatio: SAMPLED_TRACING_MIN_RATIO,
        env: 'OTEL_EXPORTER_OTLP_ENDPOINT (a local receiver), OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf, OTEL_TRACES_SAMPLER=parentbased_traceidratio and OTEL_TRACES_SAMPLER_ARG=0.1',
      },
    ];
    for (const side of sides) {
      for (const generator of Object.keys(LOAD_GENERATORS) as LoadGeneratorName[]) {
        const cpu = new Map<string, ProcessCpu[]>();
        const pids = new Map([
          [`${side.server.url}/slots`, side.server.pid],
          [`${off.url}/slots`, off.pid],
        ]);
        const comparison = await compareAlternating(
          { url: `${side.server.url}/slots` },
          { url: `${off.url}/slots` },
          context.plans.main,
          withServerCpu(LOAD_GENERATORS[generator], pids, cpu),
        );
        // The warm-up is the first run of each side: left out, as compareAlternating leaves it out.
        const target = cpu.get(`${side.server.url}/slots`)!.slice(1);
        const baseline = cpu.get(`${off.url}/slots`)!.slice(1);
        results.push({
          name: side.name,
          target: `the server (\`server/main.ts\`), SQLite, with ${side.env}`,
          baseline: 'the same server with metrics and traces off (the default)',
          bodyBytes,
          minimumRatio: side.minimumRatio,
          generator,
          comparison,
          serverCpu: {
            targetMicroseconds: median(target.map((round) => round.process)),
            baselineMicroseconds: median(baseline.map((round) => round.process)),
            targetMainThreadMicroseconds: median(target.map((round) => round.mainThread)),
            baselineMainThreadMicroseconds: median(baseline.map((round) => round.mainThread)),
          },
        });
      }
    }
    const took = (await (await fetch(`${receiver.url}/stats`)).json()) as { exports: number; bytes: number };
    process.stderr.write(
      `[bench] observability: the receiver took ${took.exports} exports, ${(took.bytes / 1e6).toFixed(1)} MB\n`,
    );
    return results;
  } finally {
    await Promise.all([off, metrics, tracing, sampled, protobuf, sampledProtobuf].map((server) => server?.stop()));
    await receiver?.stop();
  }
}

/** CPU time per answer over one run, in microseconds: the whole server process, and its main thread alone. */
interface ProcessCpu {
  process: number;
  mainThread: number;
}

/**
 * `runner` that also reads each server's CPU time (user + system) over the run, of the process (/proc/<pid>/stat) and
 * of its main thread (/proc/<pid>/task/<pid>/stat), and records it per answer, by URL, in `into`. Linux only, as the
 * bench is.
 */
function withServerCpu(
  runner: LoadRunner,
  pids: ReadonlyMap<string, number>,
  into: Map<string, ProcessCpu[]>,
): LoadRunner {
  return async (target, options) => {
    const pid = pids.get(target.url)!;
    const before = await Promise.all([cpuMicroseconds(`/proc/${pid}/stat`), cpuMicroseconds(mainThreadStat(pid))]);
    const sample = await runner(target, options);
    const after = await Promise.all([cpuMicroseconds(`/proc/${pid}/stat`), cpuMicroseconds(mainThreadStat(pid))]);
    const spent = {
      process: (after[0] - before[0]) / sample.requests,
      mainThread: (after[1] - before[1]) / sample.requests,
    };
    into.set(target.url, [...(into.get(target.url) ?? []), spent]);
    return sample;
  };
}

/** The main thread's own statistics: on Linux, the thread whose id is the process's. */
function mainThreadStat(pid: number): string {
  return `/proc/${pid}/task/${pid}/stat`;
}

/** Clock ticks of /proc's stat files (USER_HZ, 100 on Linux) in microseconds. */
const MICROSECONDS_PER_TICK = 10_000;

/** The user + system CPU time a /proc stat file (a process's or a thread's) counts, in microseconds. */
async function cpuMicroseconds(statFile: string): Promise<number> {
  const stat = await readFile(statFile, 'utf8');
  // After the command's name in parentheses (which may hold spaces): state is field 3, utime 14 and stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MICROSECONDS_PER_TICK;
}
