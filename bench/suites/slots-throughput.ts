import type { ServerProcess } from '../../testing/system/server-process';
import { workPath, type BenchContext } from '../harness/bench-context';
import { startStaticBaseline, type StaticBaselineKind } from '../harness/baseline-processes';
import { captureBody } from '../harness/captured-body';
import { compareAlternating, LOAD_GENERATORS, type LoadGeneratorName } from '../harness/compare-alternating';
import { startRealServer } from '../harness/real-server';
import type { ThroughputResult } from '../report/bench-results';

/** At least as fast as a bare Express route: the server answers `/slots` before Express's router. */
export const SLOTS_MIN_RATIO = 1.0;
/** Within 40 % of the platform's limit, a bare `node:http` answer of the same bytes. */
export const SLOTS_MIN_RATIO_NODE = 0.6;

const BASELINES: ReadonlyArray<{ kind: StaticBaselineKind; description: string; minimumRatio: number }> = [
  {
    kind: 'express',
    description: 'a bare Express route sending the same bytes with the same Content-Type, ETag and Cache-Control',
    minimumRatio: SLOTS_MIN_RATIO,
  },
  {
    kind: 'node',
    description:
      'bare `node:http` (no framework) sending the same bytes with the same Content-Type, ETag and Cache-Control',
    minimumRatio: SLOTS_MIN_RATIO_NODE,
  },
];

/**
 * `GET /slots` of the real server against a bare Express route and against bare `node:http` sending the same bytes,
 * measured with each load generator in turn against the same processes.
 */
export async function benchSlotsThroughput(context: BenchContext): Promise<ThroughputResult[]> {
  const server = await startRealServer(context, { name: 'slots' });
  const baselines: ServerProcess[] = [];
  try {
    const body = await captureBody(`${server.url}/slots`, {}, workPath(context, 'slots-body.json'));
    const results: ThroughputResult[] = [];
    for (const baseline of BASELINES) {
      const process = await startStaticBaseline(
        context,
        `slots-baseline-${baseline.kind}`,
        body,
        '/slots',
        baseline.kind,
      );
      baselines.push(process);
      for (const generator of Object.keys(LOAD_GENERATORS) as LoadGeneratorName[]) {
        const comparison = await compareAlternating(
          { url: `${server.url}/slots` },
          { url: `${process.url}/slots` },
          context.plans.main,
          LOAD_GENERATORS[generator],
        );
        results.push({
          name: `\`GET /slots\` (public slots, no session) against bare ${baseline.kind === 'node' ? '`node:http`' : 'Express'}`,
          target: 'the server (`server/main.ts`), SQLite, demo registrations',
          baseline: baseline.description,
          bodyBytes: body.bytes.length,
          minimumRatio: baseline.minimumRatio,
          generator,
          comparison,
        });
      }
      // One baseline at a time: an idle process still takes its share of two cores' scheduling.
      await process.stop();
    }
    return results;
  } finally {
    for (const baseline of baselines) await baseline.stop();
    await server.stop();
  }
}
