import type { ServerProcess } from '../../testing/system/server-process';
import { startOtlpReceiver, type OtlpReceiver } from '../../testing/system/otlp-receiver';
import type { BenchContext } from '../harness/bench-context';
import { compareAlternating, LOAD_GENERATORS, type LoadGeneratorName } from '../harness/compare-alternating';
import { startRealServer } from '../harness/real-server';
import type { ThroughputResult } from '../report/bench-results';

/** `/metrics` on: at most 10 % fewer answers on the cheapest route, where a fixed cost per request shows most. */
export const METRICS_MIN_RATIO = 0.9;
/** Tracing on (a span per request and per Express router and handler, batched to a collector): at most 30 % fewer. */
export const TRACING_MIN_RATIO = 0.7;
/** The sampling the operators' guide suggests for a busy server: one trace in ten (docs/operators/metrics-and-traces.md). */
const SAMPLED_TRACING_ENV = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };

const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/**
 * What observability costs `GET /slots`, the cheapest route: the server with `/metrics` on (METRICS_TOKEN: a
 * histogram observation per request) and with traces sent to a real local OTLP receiver (every request traced, and
 * one in ten), each against the same server with both off (the default), measured alternately with each load
 * generator.
 */
export async function benchObservabilityOverhead(context: BenchContext): Promise<ThroughputResult[]> {
  let off: ServerProcess | undefined;
  let metrics: ServerProcess | undefined;
  let tracing: ServerProcess | undefined;
  let sampled: ServerProcess | undefined;
  let receiver: OtlpReceiver | undefined;
  try {
    off = await startRealServer(context, { name: 'observability-off' });
    metrics = await startRealServer(context, { name: 'observability-metrics', env: { METRICS_TOKEN } });
    receiver = await startOtlpReceiver();
    tracing = await startRealServer(context, {
      name: 'observability-tracing',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    });
    sampled = await startRealServer(context, {
      name: 'observability-tracing-sampled',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...SAMPLED_TRACING_ENV },
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
        name: '`GET /slots` with traces sent (OTLP)',
        minimumRatio: TRACING_MIN_RATIO,
        env: 'OTEL_EXPORTER_OTLP_ENDPOINT (a local receiver)',
      },
      {
        server: sampled,
        name: '`GET /slots` with traces sent (OTLP), one request in ten sampled',
        minimumRatio: TRACING_MIN_RATIO,
        env: 'OTEL_EXPORTER_OTLP_ENDPOINT (a local receiver), OTEL_TRACES_SAMPLER=parentbased_traceidratio and OTEL_TRACES_SAMPLER_ARG=0.1',
      },
    ];
    for (const side of sides) {
      for (const generator of Object.keys(LOAD_GENERATORS) as LoadGeneratorName[]) {
        const comparison = await compareAlternating(
          { url: `${side.server.url}/slots` },
          { url: `${off.url}/slots` },
          context.plans.main,
          LOAD_GENERATORS[generator],
        );
        results.push({
          name: side.name,
          target: `the server (\`server/main.ts\`), SQLite, with ${side.env}`,
          baseline: 'the same server with metrics and traces off (the default)',
          bodyBytes,
          minimumRatio: side.minimumRatio,
          generator,
          comparison,
        });
      }
    }
    return results;
  } finally {
    await Promise.all([off?.stop(), metrics?.stop(), tracing?.stop(), sampled?.stop()]);
    await receiver?.close();
  }
}
