import type { Comparison } from '../harness/compare-alternating';
import type { BenchResults, PageLoadResult } from './bench-results';
import { renderMarkdown } from './render-markdown';

function comparison(targetRps: number, baselineRps: number): Comparison {
  const side = (rps: number) => ({
    requestsPerSecond: rps,
    bytesPerSecond: rps * 1000,
    latencyP50: 0,
    latencyP99: 12,
    rounds: [],
  });
  return { target: side(targetRps), baseline: side(baselineRps), ratio: targetRps / baselineRps };
}

/** One run of one page: three loads per side around the given medians. */
function page(
  key: Pick<PageLoadResult, 'name' | 'path' | 'signedIn' | 'cache' | 'slotEvents' | 'run'>,
  federatedMs: number,
  bundledMs: number,
  plainMs = federatedMs * 2,
): PageLoadResult {
  const side = (medianMs: number, requests: number, bytes: number) => ({
    medianMs,
    p25Ms: medianMs - 10,
    p75Ms: medianMs + 5,
    timesMs: [medianMs - 20, medianMs, medianMs + 10],
    requests,
    bytes,
  });
  return {
    ...key,
    loads: 3,
    slotComponents: [key.path === '/' ? 'dashboard-before-cards: ShortcutLinks' : 'login-before-form: LoginNotice'],
    federated: side(federatedMs, 20, 400_000),
    bundled: side(bundledMs, 5, 280_000),
    ratio: federatedMs / bundledMs,
    maximumRatio: 1.2,
    plain: { side: side(plainMs, 30, 600_000), ratio: federatedMs / plainMs, maximumRatio: 0.85 },
  };
}

const results: BenchResults = {
  startedAt: '2026-11-22T10:00:00.000Z',
  durationSeconds: 412.4,
  machine: {
    cpus: 2,
    cpuModel: 'Test CPU',
    memoryGiB: 24,
    node: 'v20.20.2',
    platform: 'Linux x64',
    loadAverage: { start: 0.52, end: 1.5 },
  },
  plans: {
    main: { warmupSeconds: 3, roundSeconds: 5, rounds: 3, connections: 10 },
    sizes: { warmupSeconds: 2, roundSeconds: 3, rounds: 3, connections: 10 },
  },
  throughput: [
    {
      name: '`GET /slots`',
      target: 'server',
      baseline: 'bare route',
      bodyBytes: 1234,
      minimumRatio: 0.95,
      generator: 'autocannon',
      comparison: comparison(9600, 10000),
    },
    {
      name: '`GET /slots` traced',
      target: 'server with traces',
      baseline: 'the same server, traces off',
      bodyBytes: 1234,
      minimumRatio: 0.5,
      generator: 'wrk',
      comparison: comparison(6000, 10000),
      serverCpu: {
        targetMicroseconds: 40.04,
        baselineMicroseconds: 24,
        targetMainThreadMicroseconds: 36.2,
        baselineMainThreadMicroseconds: 22.96,
      },
    },
    {
      name: '`GET /meta` SQLite',
      target: 'server',
      baseline: 'bare session route',
      bodyBytes: 2800,
      minimumRatio: 0.9,
      generator: 'wrk',
      comparison: comparison(8000, 10000),
    },
  ],
  payloadSizes: [
    {
      endpoint: '/slots',
      extraSlots: 10000,
      bodyBytes: 880_000,
      baseline: 'bare route',
      minimumRatio: 0.9,
      comparison: comparison(1500, 1600),
    },
  ],
  registration: [
    {
      name: 'public slots, one call',
      slots: 5000,
      baselineSlots: 500,
      targetMs: 21.5,
      baselineMs: 1.8,
      ratio: 0.84,
      minimumRatio: 0.5,
    },
    {
      name: 'public slots, one call each',
      slots: 5000,
      baselineSlots: 500,
      targetMs: 5600,
      baselineMs: 80,
      ratio: 0.14,
      minimumRatio: null,
    },
  ],
  pageLoads: [
    page({ name: 'Sign-in page', path: '/login', signedIn: false, cache: 'cold', slotEvents: 'on', run: 1 }, 500, 250),
    page({ name: 'Sign-in page', path: '/login', signedIn: false, cache: 'cold', slotEvents: 'off', run: 1 }, 480, 250),
    page({ name: 'Dashboard', path: '/', signedIn: true, cache: 'warm', slotEvents: 'on', run: 1 }, 110, 100),
    page({ name: 'Sign-in page', path: '/login', signedIn: false, cache: 'cold', slotEvents: 'on', run: 2 }, 520, 260),
    page({ name: 'Sign-in page', path: '/login', signedIn: false, cache: 'cold', slotEvents: 'off', run: 2 }, 520, 240),
    page({ name: 'Dashboard', path: '/', signedIn: true, cache: 'warm', slotEvents: 'on', run: 2 }, 112, 100),
  ],
  bundles: [
    { name: 'host initial JavaScript', files: ['a.js', 'b.js'], gzipBytes: 115_000, budgetBytes: 138_240 },
    { name: 'team_x exposed component Big', files: ['c.js'], gzipBytes: 30_000, budgetBytes: 20_480 },
  ],
  failures: [{ benchmark: 'GET /meta on Redis sessions', message: 'redis-server is not installed' }],
};

describe('renderMarkdown', () => {
  const markdown = renderMarkdown(results);

  it('states the date, the machine, the load plan and the total time', () => {
    expect(markdown).toMatch(/^# Benchmark results, 2026-11-22\n/);
    expect(markdown).toContain('took 412 s');
    expect(markdown).toContain('Machine: 2 cores (Test CPU), 24 GiB, Node v20.20.2, Linux x64; load average 0.52 at');
    expect(markdown).toContain('1.5 at the end');
    expect(markdown).toContain('3 s warm-up per side, then 3 rounds of 5 s per side');
  });

  it('names the command with the options the run was given', () => {
    expect(markdown).toContain('took 412 s (`npm run bench`).');
    const focused = renderMarkdown({ ...results, args: ['--only=pages', '--pages=dashboard,list'] });
    expect(focused).toContain('took 412 s (`npm run bench -- --only=pages --pages=dashboard,list`).');
  });

  it('prints each ratio beside its goal with a verdict', () => {
    expect(markdown).toContain(
      '| `GET /slots` | autocannon | 1.2 KiB | 9,600 | <1 ms | 12.0 ms | 10,000 | <1 ms | 12.0 ms | 0.96 | >= 0.95 | met |',
    );
    expect(markdown).toContain('| 0.80 | >= 0.90 | **missed** |');
    expect(markdown).toContain('| `GET /slots` | 10,000 | 859.4 KiB | 1,500 | 1.5 MB/s |');
  });

  it('prints the servers’ CPU per answer where a suite measured it, and nothing for the others', () => {
    expect(markdown).toContain(
      '- `GET /slots` traced, wrk: 40.0 µs against 24.0 µs (0.60); main thread 36.2 µs against 23.0 µs (0.63)',
    );
    expect(markdown.match(/^- .* µs against /gm)).toHaveLength(1);
  });

  it('prints the process’s CPU alone for a result saved before the main thread was measured', () => {
    const older = renderMarkdown({
      ...results,
      throughput: results.throughput.map((entry) =>
        entry.serverCpu === undefined
          ? entry
          : { ...entry, serverCpu: { targetMicroseconds: 40.04, baselineMicroseconds: 24 } },
      ),
    });
    expect(older).toMatch(/^- `GET \/slots` traced, wrk: 40\.0 µs against 24\.0 µs \(0\.60\)$/m);
  });

  it('prints the registration figures per slot, with a goal only where one is set', () => {
    expect(markdown).toContain('| public slots, one call | 5,000 | 21.5 ms | 500 | 1.8 ms | 0.84 | >= 0.50 | met |');
    expect(markdown).toContain('| public slots, one call each | 5,000 | 5600 ms | 500 | 80.0 ms | 0.14 | none |  |');
  });

  it('prints each page with the spread of each run, and counts its goal only when both runs meet it', () => {
    expect(markdown).toContain(
      '| Sign-in page (`/login`) | HTTP/1.1 | cold | on | 3 | 500 ms (490–505) / 520 ms (510–525) | bundled host | ' +
        '250 ms (240–255) / 260 ms (250–265) | 20 req, 390.6 KiB; 5 req, 273.4 KiB | 2.00 / 2.00 | <= 1.20 | **missed** |',
    );
    expect(markdown).toContain(
      '| Dashboard (`/`, signed in) | HTTP/1.1 | warm | on | 3 | 110 ms (100–115) / 112 ms (102–117) |',
    );
    expect(markdown).toContain('| 1.10 / 1.12 | <= 1.20 | met |');
    // The plain side at twice the product's time: 0.50 in each run.
    expect(markdown).toContain(
      '| plain Module Federation | 220 ms (210–225) / 224 ms (214–229) | 20 req, 390.6 KiB; 30 req, 585.9 KiB | ' +
        '0.50 / 0.50 | <= 0.85 | met |',
    );
    expect(markdown).toContain('- `/`: dashboard-before-cards: ShortcutLinks.');
  });

  it('lists bundle sizes against their budgets, and the failures', () => {
    expect(markdown).toContain('| host initial JavaScript | 2 | 112.3 KiB | 135.0 KiB | met |');
    expect(markdown).toContain('| team_x exposed component Big | 1 | 29.3 KiB | 20.0 KiB | **missed** |');
    expect(markdown).toContain('- **GET /meta on Redis sessions**: redis-server is not installed');
  });
});
