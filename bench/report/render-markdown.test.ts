import type { Comparison } from '../harness/compare-alternating';
import type { BenchResults } from './bench-results';
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
  pageLoads: [
    {
      name: 'Sign-in page',
      path: '/login',
      signedIn: false,
      cache: 'cold',
      loads: 3,
      slotComponents: ['login-before-form: LoginNotice + Callout'],
      federated: { medianMs: 500, timesMs: [480.2, 500, 510], requests: 20, bytes: 400_000 },
      bundled: { medianMs: 250, timesMs: [250, 240, 260], requests: 5, bytes: 280_000 },
      ratio: 2,
      maximumRatio: 1.15,
    },
    {
      name: 'Dashboard',
      path: '/',
      signedIn: true,
      cache: 'warm',
      loads: 1,
      slotComponents: ['dashboard-before-cards: ShortcutLinks'],
      federated: { medianMs: 110, timesMs: [110], requests: 6, bytes: 9_000 },
      bundled: { medianMs: 100, timesMs: [100], requests: 4, bytes: 8_000 },
      ratio: 1.1,
      maximumRatio: 1.15,
    },
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

  it('prints each ratio beside its goal with a verdict', () => {
    expect(markdown).toContain(
      '| `GET /slots` | autocannon | 1.2 KiB | 9,600 | <1 ms | 12.0 ms | 10,000 | <1 ms | 12.0 ms | 0.96 | >= 0.95 | met |',
    );
    expect(markdown).toContain('| 0.80 | >= 0.90 | **missed** |');
    expect(markdown).toContain('| `GET /slots` | 10,000 | 859.4 KiB | 1,500 | 1.5 MB/s |');
    expect(markdown).toContain(
      '| Sign-in page (`/login`) | cold | 3 | 500 ms (480, 500, 510; 20 req, 390.6 KiB) | 250 ms (250, 240, 260; 5 req, 273.4 KiB) | 2.00 | <= 1.15 | **missed** |',
    );
    expect(markdown).toContain('| Dashboard (`/`, signed in) | warm | 1 | 110 ms');
    expect(markdown).toContain('| 1.10 | <= 1.15 | met |');
    expect(markdown).toContain('- `/`: dashboard-before-cards: ShortcutLinks.');
  });

  it('lists bundle sizes against their budgets, and the failures', () => {
    expect(markdown).toContain('| host initial JavaScript | 2 | 112.3 KiB | 135.0 KiB | met |');
    expect(markdown).toContain('| team_x exposed component Big | 1 | 29.3 KiB | 20.0 KiB | **missed** |');
    expect(markdown).toContain('- **GET /meta on Redis sessions**: redis-server is not installed');
  });
});
