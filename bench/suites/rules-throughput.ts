import { signIn } from '../../tests/multi-instance/support/session-client';
import type { ServerProcess } from '../../testing/system/server-process';
import { workPath, type BenchContext } from '../harness/bench-context';
import { startSessionBaseline, type SessionBaseline } from '../harness/baseline-processes';
import { captureBody } from '../harness/captured-body';
import { compareAlternating, LOAD_GENERATORS, type LoadGeneratorName } from '../harness/compare-alternating';
import { BENCH_DEMO_PASSWORD, BENCH_DEMO_USERNAME, startRealServer } from '../harness/real-server';
import type { ThroughputResult } from '../report/bench-results';
import { META_MIN_RATIO } from './meta-throughput';
import { untilReleased } from './releases-throughput';

/** The features of issue 27's point 5 at a size a large product reaches. */
export const RULED_SLOTS = 1_000;
/** Per remote; the two built-in remotes make 100 releases in all, the last of each a 50 % canary. */
export const RELEASES_PER_REMOTE = 50;

/**
 * The new features priced on `GET /meta`: 1,000 slots with `visibleWhen` rules (evaluated per request: /meta
 * answers every location, so every ruled slot is evaluated, see server/slots/visible-slots-cost.test.ts), 100
 * releases with a canary on every remote, against the bare session route sending the same bytes (SQLite sessions).
 */
export async function benchRulesThroughput(context: BenchContext): Promise<ThroughputResult[]> {
  let server: ServerProcess | undefined;
  let baseline: SessionBaseline | undefined;
  try {
    server = await startRealServer(context, {
      name: 'rules',
      entry: 'bench/servers/bench-server-main.ts',
      env: {
        BENCH_RULED_SLOTS: String(RULED_SLOTS),
        BENCH_RELEASES: '1',
        BENCH_RELEASES_PER_REMOTE: String(RELEASES_PER_REMOTE),
      },
    });
    const cookie = await signIn(server.url, BENCH_DEMO_USERNAME, BENCH_DEMO_PASSWORD);
    await untilReleased(server.url, cookie);
    const body = await captureBody(`${server.url}/meta`, { Cookie: cookie }, workPath(context, 'rules-meta.json'));
    const visible = body.bytes.toString('utf8').split('Ruled slot number').length - 1;
    baseline = await startSessionBaseline(context, 'rules-meta-baseline', { kind: 'sqlite' }, body);
    const results: ThroughputResult[] = [];
    for (const generator of Object.keys(LOAD_GENERATORS) as LoadGeneratorName[]) {
      results.push({
        name: `\`GET /meta\` signed in, ${RULED_SLOTS.toLocaleString('en-US')} ruled slots, 100 releases, canaries`,
        target:
          `the server with ${RULED_SLOTS} slots with visibleWhen rules at protected locations (${visible} visible to ` +
          `the demo admin), ${RELEASES_PER_REMOTE} releases per remote, the last a 50 % canary`,
        baseline:
          'the /meta baseline: express-session + passport on SqliteSessionStore, constant JSON of the same bytes',
        bodyBytes: body.bytes.length,
        minimumRatio: META_MIN_RATIO,
        generator,
        comparison: await compareAlternating(
          { url: `${server.url}/meta`, headers: { Cookie: cookie } },
          { url: `${baseline.process.url}/meta`, headers: { Cookie: baseline.cookie } },
          context.plans.main,
          LOAD_GENERATORS[generator],
        ),
      });
    }
    return results;
  } finally {
    await baseline?.process.stop();
    await server?.stop();
  }
}
