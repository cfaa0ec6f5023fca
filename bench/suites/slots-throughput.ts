import type { ServerProcess } from '../../testing/system/server-process';
import { workPath, type BenchContext } from '../harness/bench-context';
import { startStaticBaseline } from '../harness/baseline-processes';
import { captureBody } from '../harness/captured-body';
import { compareAlternating, LOAD_GENERATORS, type LoadGeneratorName } from '../harness/compare-alternating';
import { startRealServer } from '../harness/real-server';
import type { ThroughputResult } from '../report/bench-results';

export const SLOTS_MIN_RATIO = 1.0;

/**
 * `GET /slots` of the real server against a bare Express route sending the same bytes, measured with each load
 * generator in turn against the same two processes.
 */
export async function benchSlotsThroughput(context: BenchContext): Promise<ThroughputResult[]> {
  const server = await startRealServer(context, { name: 'slots' });
  let baseline: ServerProcess | undefined;
  try {
    const body = await captureBody(`${server.url}/slots`, {}, workPath(context, 'slots-body.json'));
    baseline = await startStaticBaseline(context, 'slots-baseline', body, '/slots');
    const results: ThroughputResult[] = [];
    for (const generator of Object.keys(LOAD_GENERATORS) as LoadGeneratorName[]) {
      const comparison = await compareAlternating(
        { url: `${server.url}/slots` },
        { url: `${baseline.url}/slots` },
        context.plans.main,
        LOAD_GENERATORS[generator],
      );
      results.push({
        name: '`GET /slots` (public slots, no session)',
        target: 'the server (`server/main.ts`), SQLite, demo registrations',
        baseline: 'a bare Express route sending the same bytes with the same Content-Type, ETag and Cache-Control',
        bodyBytes: body.bytes.length,
        minimumRatio: SLOTS_MIN_RATIO,
        generator,
        comparison,
      });
    }
    return results;
  } finally {
    await baseline?.stop();
    await server.stop();
  }
}
