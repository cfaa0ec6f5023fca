import type { ServerProcess } from '../../testing/system/server-process';
import { signIn } from '../../tests/multi-instance/support/session-client';
import { workPath, type BenchContext } from '../harness/bench-context';
import { startSessionBaseline, startStaticBaseline, type SessionBaseline } from '../harness/baseline-processes';
import { captureBody } from '../harness/captured-body';
import { compareAlternating } from '../harness/compare-alternating';
import { BENCH_DEMO_PASSWORD, BENCH_DEMO_USERNAME, startRealServer } from '../harness/real-server';
import type { PayloadSizeResult } from '../report/bench-results';

export const REGISTRY_SIZES: readonly number[] = [10, 1_000, 10_000];
/** Holding this ratio at every size shows the per-request cost follows the bytes, not the number of slots. */
export const PAYLOAD_MIN_RATIO = 0.9;

/**
 * `GET /slots` and `GET /meta` with `extraSlots` more registered slots (bench/servers/bench-server-main.ts), each
 * against a bare route sending the same bytes: for /slots a bare Express route, for /meta the bare express-session +
 * passport route on the SQLite store (a session is part of what /meta costs at any size).
 */
export async function benchPayloadSize(context: BenchContext, extraSlots: number): Promise<PayloadSizeResult[]> {
  const name = `sizes-${extraSlots}`;
  const server = await startRealServer(context, {
    name,
    entry: 'bench/servers/bench-server-main.ts',
    env: { BENCH_EXTRA_SLOTS: String(extraSlots) },
  });
  let slotsBaseline: ServerProcess | undefined;
  let metaBaseline: SessionBaseline | undefined;
  try {
    const cookie = await signIn(server.url, BENCH_DEMO_USERNAME, BENCH_DEMO_PASSWORD);
    const slotsBody = await captureBody(`${server.url}/slots`, {}, workPath(context, `${name}-slots.json`));
    const metaBody = await captureBody(
      `${server.url}/meta`,
      { Cookie: cookie },
      workPath(context, `${name}-meta.json`),
    );
    assertCarries(slotsBody.bytes, extraSlots);
    assertCarries(metaBody.bytes, extraSlots);

    slotsBaseline = await startStaticBaseline(context, `${name}-slots-baseline`, slotsBody, '/slots');
    const slots = await compareAlternating(
      { url: `${server.url}/slots` },
      { url: `${slotsBaseline.url}/slots` },
      context.plans.sizes,
    );
    await slotsBaseline.stop();
    slotsBaseline = undefined;

    metaBaseline = await startSessionBaseline(context, `${name}-meta-baseline`, { kind: 'sqlite' }, metaBody);
    const meta = await compareAlternating(
      { url: `${server.url}/meta`, headers: { Cookie: cookie } },
      { url: `${metaBaseline.process.url}/meta`, headers: { Cookie: metaBaseline.cookie } },
      context.plans.sizes,
    );
    return [
      {
        endpoint: '/slots',
        extraSlots,
        bodyBytes: slotsBody.bytes.length,
        baseline: 'bare Express route, same bytes and content headers',
        minimumRatio: PAYLOAD_MIN_RATIO,
        comparison: slots,
      },
      {
        endpoint: '/meta',
        extraSlots,
        bodyBytes: metaBody.bytes.length,
        baseline: 'bare express-session + passport route on the SQLite session store, same bytes',
        minimumRatio: PAYLOAD_MIN_RATIO,
        comparison: meta,
      },
    ];
  } finally {
    await slotsBaseline?.stop();
    await metaBaseline?.process.stop();
    await server.stop();
  }
}

// The registrations must really be in the answers, or the benchmark would measure the demo payload three times.
function assertCarries(body: Buffer, extraSlots: number): void {
  const marker = `"index":${extraSlots - 1},`;
  if (!body.includes(marker)) {
    throw new Error(`The answer does not carry the ${extraSlots} extra slots (no ${marker} in it).`);
  }
}
