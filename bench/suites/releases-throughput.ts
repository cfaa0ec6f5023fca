import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RemoteReleasesPayload, RemotesPayload } from '../../shared';
import { requestJson, signIn } from '../../tests/multi-instance/support/session-client';
import { workPath, type BenchContext } from '../harness/bench-context';
import { startSessionBaseline, type SessionBaseline } from '../harness/baseline-processes';
import { captureBody } from '../harness/captured-body';
import { compareAlternating, LOAD_GENERATORS, type LoadGeneratorName } from '../harness/compare-alternating';
import { BENCH_DEMO_PASSWORD, BENCH_DEMO_USERNAME, startRealServer } from '../harness/real-server';
import type { ThroughputResult } from '../report/bench-results';
import type { ServerProcess } from '../../testing/system/server-process';
import { PRODUCT_DIST_DIR } from './front-end-build';
import { META_MIN_RATIO } from './meta-throughput';

/** The signed-in page with releases chosen per request, against the same page without releases. */
export const RELEASES_PAGE_MIN_RATIO = 0.9;

const SERVER_ENTRY = 'bench/servers/bench-server-main.ts';

/**
 * Releases resolved per request (every remote released, a 50 % canary): `GET /meta` signed in against the session
 * baseline of the /meta benchmark (the goal of /meta), and the signed-in page (index.html with its boot data, which
 * chooses the releases) against the same server without releases. Needs the front end built for the page.
 */
export async function benchReleasesThroughput(context: BenchContext): Promise<ThroughputResult[]> {
  const distDir = existsSync(path.join(PRODUCT_DIST_DIR, 'host', 'index.html')) ? PRODUCT_DIST_DIR : undefined;
  const env = distDir ? { BENCH_DIST_DIR: distDir } : {};
  const processes: ServerProcess[] = [];
  let baseline: SessionBaseline | undefined;
  try {
    const released = await startRealServer(context, {
      name: 'releases',
      entry: SERVER_ENTRY,
      env: { ...env, BENCH_RELEASES: '1' },
    });
    processes.push(released);
    const cookie = await signIn(released.url, BENCH_DEMO_USERNAME, BENCH_DEMO_PASSWORD);
    await untilReleased(released.url, cookie);
    const body = await captureBody(`${released.url}/meta`, { Cookie: cookie }, workPath(context, 'releases-meta.json'));
    baseline = await startSessionBaseline(context, 'releases-meta-baseline', { kind: 'sqlite' }, body);
    const results: ThroughputResult[] = [];
    for (const generator of Object.keys(LOAD_GENERATORS) as LoadGeneratorName[]) {
      results.push({
        name: '`GET /meta` signed in, releases with a canary',
        target: 'the server, every remote released, a 50 % canary',
        baseline:
          'the /meta baseline: express-session + passport on SqliteSessionStore, constant JSON of the same bytes',
        bodyBytes: body.bytes.length,
        minimumRatio: META_MIN_RATIO,
        generator,
        comparison: await compareAlternating(
          { url: `${released.url}/meta`, headers: { Cookie: cookie } },
          { url: `${baseline.process.url}/meta`, headers: { Cookie: baseline.cookie } },
          context.plans.main,
          LOAD_GENERATORS[generator],
        ),
      });
    }
    if (!distDir) return results;
    const plain = await startRealServer(context, { name: 'releases-none', entry: SERVER_ENTRY, env });
    processes.push(plain);
    const plainCookie = await signIn(plain.url, BENCH_DEMO_USERNAME, BENCH_DEMO_PASSWORD);
    const page = await captureBody(`${released.url}/`, { Cookie: cookie }, workPath(context, 'releases-page.html'));
    for (const generator of Object.keys(LOAD_GENERATORS) as LoadGeneratorName[]) {
      results.push({
        name: 'signed-in page `GET /`, releases chosen per request',
        target: 'the server, every remote released, a 50 % canary',
        baseline: 'the same server and page without releases',
        bodyBytes: page.bytes.length,
        minimumRatio: RELEASES_PAGE_MIN_RATIO,
        generator,
        comparison: await compareAlternating(
          { url: `${released.url}/`, headers: { Cookie: cookie } },
          { url: `${plain.url}/`, headers: { Cookie: plainCookie } },
          context.plans.main,
          LOAD_GENERATORS[generator],
        ),
      });
    }
    return results;
  } finally {
    await baseline?.process.stop();
    for (const server of processes) await server.stop();
  }
}

/**
 * The server seeds its releases just after it is ready: measure once every remote it serves has its rollout with a
 * canary (read as the demo operator). Whether the demo user falls in the canary's half is the hash's choice: the
 * per-request choice runs either way, so the wait does not depend on it.
 */
export async function untilReleased(origin: string, cookie: string): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    const served = ((await requestJson(origin, '/api/remotes', { cookie })).body as RemotesPayload | null)?.remotes;
    const released = (await requestJson(origin, '/api/remotes/releases', { cookie })).body as RemoteReleasesPayload;
    const withCanary = new Set(
      (released?.remotes ?? []).filter((remote) => remote.rollout.canary !== null).map((remote) => remote.remote),
    );
    if ((served ?? []).every((remote) => withCanary.has(remote.name))) return;
    if (Date.now() > until) throw new Error(`${origin} did not serve its bench releases within 15 s.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
