/**
 * A bounded soak on loopback: CLIENTS concurrent clients (half anonymous, half signed in) hammer the API of a real
 * server process for SECONDS seconds. It must end with zero errors (no failed request, no unexpected status) and
 * without the server's memory growing after warm-up: the median resident size (RSS, sampled from /proc every
 * 250 ms) of the second half of the run after warm-up may exceed that of the first half by less than the bound.
 * Medians, because the garbage collector makes RSS swing by tens of MB around a steady level; a leak moves the level.
 * Warm-up and the run are counted in requests as well as seconds: a machine busy with other work serves fewer of them
 * in the same time, and a heap still filling its working size is not a leak.
 *
 * SOAK_SECONDS (20), SOAK_CLIENTS (20) and SOAK_RSS_GROWTH_MB (32) tune it; the defaults are what CI runs.
 */
import { existsSync } from 'node:fs';
import type { RecordListPayload } from '../../shared';
import { DEMO_PASSWORD, DEMO_USERNAME, startAppServer, type AppServer } from '../../testing/system/app-server';
import { sampleMemory, type MemorySample } from './support/process-memory';
import { sleep } from './support/raw-http';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 20);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 20);
const RSS_GROWTH_LIMIT_MB = Number(process.env.SOAK_RSS_GROWTH_MB ?? 32);
/**
 * The first part of the run, during which caches fill, the JIT settles and the heap reaches its working size: 40 % of
 * the time and at least WARM_UP_REQUESTS answers. What follows it lasts the rest of the time and at least
 * MEASURED_REQUESTS answers.
 */
const WARM_UP_FRACTION = 0.4;
const WARM_UP_REQUESTS = 4_000;
const MEASURED_REQUESTS = 6_000;

// Generous: on a busy machine the requests counted above take longer than SECONDS.
jest.setTimeout((SECONDS + 150) * 1000);

interface Step {
  path: string;
  /** Statuses that count as a correct answer for this client. */
  expected: readonly number[];
  headers?: Record<string, string>;
}

interface ClientReport {
  requests: number;
  failures: string[];
}

const ANONYMOUS_STEPS: readonly Step[] = [
  { path: '/slots', expected: [200] },
  { path: '/api/remotes', expected: [200] },
  { path: '/me', expected: [401] },
  { path: '/meta', expected: [401] },
  { path: '/api/resources', expected: [401] },
  { path: '/healthz', expected: [200] },
];

function signedInSteps(recordId: number): Step[] {
  return [
    { path: '/slots', expected: [200] },
    { path: '/meta', expected: [200] },
    { path: '/me', expected: [200] },
    { path: '/api/resources', expected: [200] },
    { path: '/api/resources/articles', expected: [200] },
    { path: '/api/resources/articles/records', expected: [200] },
    { path: `/api/resources/articles/records/${recordId}`, expected: [200] },
    { path: '/api/resources/authors/records', expected: [200] },
  ];
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: DEMO_USERNAME, password: DEMO_PASSWORD }),
  });
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie()[0]?.split(';', 1)[0];
  if (response.status !== 200 || !cookie) throw new Error(`sign-in answered ${response.status}`);
  return cookie;
}

/** The soak's clock and its count of answers together: when warm-up ends, and when the run does. */
class SoakPhases {
  private readonly started = Date.now();
  private answered = 0;
  /** Milliseconds from the start to the end of warm-up, once it has ended. */
  warmUpEndMs: number | null = null;

  count(): void {
    this.answered++;
    const elapsed = Date.now() - this.started;
    if (
      this.warmUpEndMs === null &&
      elapsed >= SECONDS * 1000 * WARM_UP_FRACTION &&
      this.answered >= WARM_UP_REQUESTS
    ) {
      this.warmUpEndMs = elapsed;
      this.answered = 0;
    }
  }

  get running(): boolean {
    return this.warmUpEndMs === null || Date.now() - this.started < SECONDS * 1000 || this.answered < MEASURED_REQUESTS;
  }
}

async function runClient(
  url: string,
  steps: readonly Step[],
  cookie: string | null,
  phases: SoakPhases,
): Promise<ClientReport> {
  const report: ClientReport = { requests: 0, failures: [] };
  let index = 0;
  while (phases.running) {
    const step = steps[index % steps.length] as Step;
    index++;
    report.requests++;
    try {
      const response = await fetch(`${url}${step.path}`, {
        headers: { Accept: 'application/json', ...(cookie ? { Cookie: cookie } : {}), ...step.headers },
      });
      const body = await response.text();
      if (!step.expected.includes(response.status)) {
        report.failures.push(`${step.path}: HTTP ${response.status} ${body.slice(0, 200)}`);
      } else if (response.status !== 304) {
        JSON.parse(body);
      }
    } catch (error) {
      report.failures.push(`${step.path}: ${(error as Error).message}`);
    }
    phases.count();
  }
  return report;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function megabytes(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}

describe(`soak: ${CLIENTS} clients for ${SECONDS} s`, () => {
  let server: AppServer;

  beforeAll(async () => {
    server = await startAppServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('serves every request correctly and does not grow its memory', async () => {
    expect(existsSync(`/proc/${server.process.pid}/status`)).toBe(true);
    const { url } = server;
    const signedInCount = Math.floor(CLIENTS / 2);
    const cookies: string[] = [];
    for (let i = 0; i < signedInCount; i++) cookies.push(await signIn(url));
    const list = (await (
      await fetch(`${url}/api/resources/articles/records`, { headers: { Cookie: cookies[0] ?? '' } })
    ).json()) as RecordListPayload;
    const recordId = list.records[0]?.id;
    expect(typeof recordId).toBe('number');
    const steps = signedInSteps(recordId as number);

    const memory = sampleMemory(server.process.pid, 250);
    const started = Date.now();
    const phases = new SoakPhases();
    const clients = Array.from({ length: CLIENTS }, (_, i) =>
      i < signedInCount
        ? runClient(url, steps, cookies[i] ?? null, phases)
        : runClient(url, ANONYMOUS_STEPS, null, phases),
    );
    const reports = await Promise.all(clients);
    await sleep(100);
    const samples: MemorySample[] = memory.stop();

    const requests = reports.reduce((sum, report) => sum + report.requests, 0);
    const failures = reports.flatMap((report) => report.failures);
    const seconds = (Date.now() - started) / 1000;
    const warmUpEndMs = phases.warmUpEndMs ?? 0;
    const afterWarmUp = samples.filter((sample) => sample.atMs >= warmUpEndMs).map((sample) => sample.rssBytes);
    const half = Math.floor(afterWarmUp.length / 2);
    const early = median(afterWarmUp.slice(0, half));
    const late = median(afterWarmUp.slice(half));
    const growthMb = megabytes(late - early);
    // Printed so a run shows its figures, not only pass/fail.
    console.log(
      `soak: ${requests} requests in ${seconds.toFixed(1)} s (${Math.round(requests / seconds)}/s) by ${CLIENTS} ` +
        `clients (warm-up ${(warmUpEndMs / 1000).toFixed(1)} s), ` +
        `${failures.length} failures; median RSS after warm-up ${megabytes(early)} MB, then ${megabytes(late)} MB ` +
        `(growth ${growthMb} MB, limit ${RSS_GROWTH_LIMIT_MB} MB), peak ${megabytes(Math.max(...afterWarmUp))} MB`,
    );
    expect(failures.slice(0, 10)).toEqual([]);
    expect(requests).toBeGreaterThanOrEqual(WARM_UP_REQUESTS + MEASURED_REQUESTS);
    expect(afterWarmUp.length).toBeGreaterThan(8);
    expect(growthMb).toBeLessThan(RSS_GROWTH_LIMIT_MB);
    // Still healthy afterwards.
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  });
});
