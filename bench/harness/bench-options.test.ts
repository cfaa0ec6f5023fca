import { BENCHED_PAGE_NAMES, BENCHMARK_NAMES, parseBenchOptions } from './bench-options';

describe('parseBenchOptions', () => {
  it('runs everything with the full plans by default', () => {
    const options = parseBenchOptions([]);
    expect([...options.only]).toEqual([...BENCHMARK_NAMES]);
    expect(options.plans.main).toEqual({ warmupSeconds: 2, roundSeconds: 4, rounds: 3, connections: 10 });
    expect(options.example).toBe(false);
    expect(options.skipBuild).toBe(false);
    expect(options.cpuProfile).toBe(false);
    expect(options.pages).toEqual({ loadsPerRun: 20, runs: 2, protocols: ['http1'], pages: [...BENCHED_PAGE_NAMES] });
  });

  it('reads a subset, the example flag, --skip-build, --cpu-prof and --quick', () => {
    const options = parseBenchOptions(['--only=slots,sizes', '--example', '--skip-build', '--cpu-prof', '--quick']);
    expect([...options.only]).toEqual(['slots', 'sizes']);
    expect(options.example).toBe(true);
    expect(options.skipBuild).toBe(true);
    expect(options.cpuProfile).toBe(true);
    expect(options.plans.main.rounds).toBe(1);
    expect(options.plans.sizes.rounds).toBe(1);
    // Still two runs: the smoke run goes through the two-run verdict too.
    expect(options.pages).toEqual({ loadsPerRun: 1, runs: 2, protocols: ['http1'], pages: [...BENCHED_PAGE_NAMES] });
  });

  it('reads the page plan, over --quick whatever the order', () => {
    expect(parseBenchOptions(['--page-loads=30', '--page-runs=3']).pages).toEqual({
      loadsPerRun: 30,
      runs: 3,
      protocols: ['http1'],
      pages: [...BENCHED_PAGE_NAMES],
    });
    expect(parseBenchOptions(['--page-runs=1', '--quick']).pages).toEqual({
      loadsPerRun: 1,
      runs: 1,
      protocols: ['http1'],
      pages: [...BENCHED_PAGE_NAMES],
    });
    expect(() => parseBenchOptions(['--page-loads=0'])).toThrow(/--page-loads=0: give a whole number of 1 or more/);
    expect(() => parseBenchOptions(['--page-runs=two'])).toThrow(/give a whole number/);
  });

  it('reads the protocols the pages are loaded over, in the order given', () => {
    expect(parseBenchOptions(['--page-protocols=http1,h2']).pages.protocols).toEqual(['http1', 'h2']);
    expect(parseBenchOptions(['--quick', '--page-protocols=h2,https1']).pages.protocols).toEqual(['h2', 'https1']);
    expect(() => parseBenchOptions(['--page-protocols=http3'])).toThrow(/give distinct names among http1, h2, https1/);
    expect(() => parseBenchOptions(['--page-protocols=h2,h2'])).toThrow(/give distinct names/);
    expect(() => parseBenchOptions(['--page-protocols='])).toThrow(/give distinct names/);
  });

  it('reads the pages to measure, in the suite order whatever the order given', () => {
    expect(parseBenchOptions(['--pages=list,dashboard']).pages.pages).toEqual(['dashboard', 'list']);
    expect(parseBenchOptions(['--quick', '--pages=new']).pages).toMatchObject({ loadsPerRun: 1, pages: ['new'] });
    expect(() => parseBenchOptions(['--pages=home'])).toThrow(
      /--pages=home: give distinct names among login, dashboard/,
    );
    expect(() => parseBenchOptions(['--pages=list,list'])).toThrow(/give distinct names/);
    expect(() => parseBenchOptions(['--pages='])).toThrow(/give distinct names/);
  });

  it('refuses an unknown benchmark or option with the usage', () => {
    expect(() => parseBenchOptions(['--only=slots,nope'])).toThrow(/Unknown benchmark nope\.[\s\S]*--only=<names>/);
    expect(() => parseBenchOptions(['--only='])).toThrow(/Unknown benchmark \(none given\)/);
    expect(() => parseBenchOptions(['--fast'])).toThrow(/Unknown option --fast\.[\s\S]*npm run bench/);
  });
});
