import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startAppServer, DEMO_PASSWORD, DEMO_USERNAME, type AppServer } from '../../testing/system/app-server';
import { assertBuilt } from '../../testing/system/build-output';
import { DIST_DIR } from '../../testing/system/repo-root';
import { residentBytes, sampleMemory } from './support/process-memory';
import { DEFAULT_SCRYPT_PARAMS } from '../../server/auth/password-hash';

/**
 * A burst of failed sign-ins must not stall the front end (outside test, issue 13 point 1: 90 failed sign-ins at
 * once kept libuv's thread pool busy with password hashes, and the host's and remotes' files took up to 20 s).
 * Password checks run two at a time with a short queue (the excess is answered 503 at once), and build output is
 * served from memory, off that pool. While 100 failed sign-ins arrive at once, a browser's worth of files is
 * fetched again and again: their p99 stays under 250 ms (or ten times their p99 at rest on a busy machine), the
 * server's memory stays bounded, and a correct sign-in afterwards succeeds.
 */
jest.setTimeout(120_000);

const BURST = 100;
const ASSET_P99_LIMIT_MS = 250;
/** What one scrypt check takes (128 * N * r bytes): 128 MiB with the default parameters. */
const SCRYPT_BYTES = 128 * DEFAULT_SCRYPT_PARAMS.N * DEFAULT_SCRYPT_PARAMS.r;
/**
 * How much the burst may add to the server's memory at rest: two checks at a time (the gate's design, written
 * here rather than read from the gate, so widening the gate fails this test), plus 128 MiB for the pending
 * requests, the answers in flight and the allocator's slack. Without the gate, the four threads of libuv's pool
 * each hold a check's 128 MiB and the process grew by some 590 MiB here.
 */
const RSS_GROWTH_LIMIT_BYTES = 2 * SCRYPT_BYTES + 128 * 1024 * 1024;

let server: AppServer;

beforeAll(async () => {
  assertBuilt();
  server = await startAppServer({
    // The burst comes from a hundred addresses (one address alone gets its share of the password checks, and 429
    // beyond: password-check-gate.ts), told by a proxy; the per-address limit is raised all the same, as the
    // correct sign-in that follows comes from the proxy's own address.
    env: { LOGIN_IP_RATE_LIMIT: '1000', TRUST_PROXY: '1' },
  });
});
afterAll(() => server?.stop());

/** What a browser loads for the sign-in page: the host's files and every remote's manifest, entry and chunks. */
function browserSizedAssets(): string[] {
  const files = (dir: string, prefix: string) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(js|css|json)$/.test(entry.name) && !entry.name.endsWith('.map'))
      .filter((entry) => entry.name !== 'mf-stats.json')
      .map(
        (entry) => `${prefix}/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`,
      );
  return ['/login', ...files(path.join(DIST_DIR, 'host'), ''), ...files(path.join(DIST_DIR, 'remotes'), '/remotes')];
}

async function timedFetch(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

async function postLogin(username: string, password: string, client?: string): Promise<Response> {
  return fetch(`${server.url}/login`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      ...(client === undefined ? {} : { 'X-Forwarded-For': client }),
    },
    body: JSON.stringify({ username, password }),
  });
}

/**
 * A browser's worth of files fetched over six connections (as a browser opens per origin), every file at least
 * `rounds` times and for as long as `busy()` says: each fetch's time in ms.
 */
async function fetchAssetsWhile(assets: readonly string[], rounds: number, busy: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: 6 }, async (_, lane) => {
      for (let round = 0; busy() || round < rounds; round++) {
        for (let index = lane; index < assets.length; index += 6) {
          latencies.push(await timedFetch(`${server.url}${assets[index]}`));
        }
      }
    }),
  );
  return latencies;
}

it('keeps serving the front end while 100 failed sign-ins arrive at once, and signs in afterwards', async () => {
  const assets = browserSizedAssets();
  expect(assets.length).toBeGreaterThan(10);
  // Warm: the first read of each file is not what is measured.
  for (const asset of assets) await timedFetch(`${server.url}${asset}`);
  // The same fetches without a burst, just before it: what this machine takes at this moment. The limit is 250 ms,
  // or ten times that when the machine is busy with other work (a stalled front end takes seconds, as in the outside
  // test: hundreds of times its time at rest).
  const atRestP99 = percentile(await fetchAssetsWhile(assets, 3, () => false), 0.99);
  const p99Limit = Math.max(ASSET_P99_LIMIT_MS, 10 * atRestP99);

  const atRest = residentBytes(server.process.pid) ?? 0;
  const memory = sampleMemory(server.process.pid, 50);
  let bursting = true;
  const burst = Promise.all(
    Array.from({ length: BURST }, (_, index) =>
      postLogin(`burst-${index}`, 'wrong password, on purpose', `10.2.0.${index}`).then((response) => response.status),
    ),
  ).finally(() => {
    bursting = false;
  });
  const latencies = await fetchAssetsWhile(assets, 3, () => bursting);
  const statuses = await burst;
  const samples = memory.stop();

  // Every attempt was answered: refused (401) or turned away at once (503, retry later); none got in.
  expect(statuses.every((status) => status === 401 || status === 503)).toBe(true);
  const p99 = percentile(latencies, 0.99);
  const peak = Math.max(...samples.map((sample) => sample.rssBytes));
  console.log(
    `sign-in burst: ${latencies.length} asset requests, p50 ${percentile(latencies, 0.5).toFixed(1)} ms, ` +
      `p99 ${p99.toFixed(1)} ms (at rest ${atRestP99.toFixed(1)} ms), max ${Math.max(...latencies).toFixed(1)} ms; ` +
      `${statuses.filter((status) => status === 503).length} of ${BURST} sign-ins turned away (503); ` +
      `RSS ${(atRest / 1024 / 1024).toFixed(0)} MiB at rest, peak ${(peak / 1024 / 1024).toFixed(0)} MiB`,
  );
  expect(p99).toBeLessThan(p99Limit);
  expect(peak - atRest).toBeLessThan(RSS_GROWTH_LIMIT_BYTES);

  // A real sign-in after the burst gets through (waiting as Retry-After says if the checks are still busy).
  let answer = await postLogin(DEMO_USERNAME, DEMO_PASSWORD);
  for (let attempt = 0; answer.status === 503 && attempt < 10; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after') ?? '1') * 1000));
    answer = await postLogin(DEMO_USERNAME, DEMO_PASSWORD);
  }
  expect(answer.status).toBe(200);
});
