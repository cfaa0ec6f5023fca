import type { LoadPlan } from './compare-alternating';

export const BENCHMARK_NAMES = [
  'bundles',
  'slots',
  'meta-sqlite',
  'meta-redis',
  'meta-postgres',
  'releases',
  'rules',
  'observability',
  'sizes',
  'lists',
  'pages',
] as const;
export type BenchmarkName = (typeof BENCHMARK_NAMES)[number];

export interface BenchOptions {
  only: ReadonlySet<BenchmarkName>;
  /** Also write `bench/results/example-<date>.md`. */
  example: boolean;
  /** Skip the front-end build and use what dist/ holds (faster reruns of the server benchmarks). */
  skipBuild: boolean;
  /** Target servers run with `--cpu-prof`; profiles go beside the logs. */
  cpuProfile: boolean;
  plans: { main: LoadPlan; sizes: LoadPlan };
  pages: PageSuitePlan;
}

/** How the page suite is run: loads per page, state and side in each run, and how many runs in a row. */
export interface PageSuitePlan {
  loadsPerRun: number;
  /** A page's goal counts as met only when every run meets it, so at least 2 for a verdict. */
  runs: number;
}

/** 20 loads: a median and quartiles that one slow load cannot move; 2 runs: a goal met by chance once is not met. */
export const DEFAULT_PAGE_PLAN: PageSuitePlan = Object.freeze({ loadsPerRun: 20, runs: 2 });
const QUICK_PAGE_PLAN: PageSuitePlan = Object.freeze({ loadsPerRun: 1, runs: 2 });

const MAIN_PLAN: LoadPlan = { warmupSeconds: 2, roundSeconds: 4, rounds: 3, connections: 10 };
const SIZES_PLAN: LoadPlan = { warmupSeconds: 1, roundSeconds: 2, rounds: 3, connections: 10 };
const QUICK_PLAN: LoadPlan = { warmupSeconds: 1, roundSeconds: 2, rounds: 1, connections: 10 };

export const BENCH_USAGE = `npm run bench [-- options]

  --only=<names>   comma-separated subset of: ${BENCHMARK_NAMES.join(', ')}
  --example        also write bench/results/example-<date>.md (the committed example run)
  --skip-build     use the front end already in dist/ (bundle sizes and the pages need a build)
  --quick          1 s warm-up and one 2 s round per side, one load per page and run: a smoke run, not figures to quote
  --page-loads=<n> loads per page, state and side in each run of the page suite (default ${DEFAULT_PAGE_PLAN.loadsPerRun})
  --page-runs=<n>  runs of the page suite in a row; a page goal is met only when every run meets it (default ${DEFAULT_PAGE_PLAN.runs})
  --cpu-prof       run the target servers with node --cpu-prof (profiles in the run's log folder)`;

/** Parses `process.argv.slice(2)`; throws with the usage on anything unknown. */
export function parseBenchOptions(args: readonly string[]): BenchOptions {
  let only = new Set<BenchmarkName>(BENCHMARK_NAMES);
  let example = false;
  let skipBuild = false;
  let cpuProfile = false;
  let quick = false;
  let pageLoads: number | undefined;
  let pageRuns: number | undefined;
  for (const arg of args) {
    if (arg === '--example') example = true;
    else if (arg === '--skip-build') skipBuild = true;
    else if (arg === '--cpu-prof') cpuProfile = true;
    else if (arg === '--quick') quick = true;
    else if (arg.startsWith('--page-loads=')) pageLoads = wholeNumber(arg);
    else if (arg.startsWith('--page-runs=')) pageRuns = wholeNumber(arg);
    else if (arg.startsWith('--only=')) {
      const names = arg
        .slice('--only='.length)
        .split(',')
        .filter((name) => name !== '');
      const unknown = names.filter((name) => !(BENCHMARK_NAMES as readonly string[]).includes(name));
      if (unknown.length > 0 || names.length === 0) {
        throw new Error(`Unknown benchmark ${unknown.join(', ') || '(none given)'}.\n\n${BENCH_USAGE}`);
      }
      only = new Set(names as BenchmarkName[]);
    } else {
      throw new Error(`Unknown option ${arg}.\n\n${BENCH_USAGE}`);
    }
  }
  return {
    only,
    example,
    skipBuild,
    cpuProfile,
    plans: quick ? { main: QUICK_PLAN, sizes: QUICK_PLAN } : { main: MAIN_PLAN, sizes: SIZES_PLAN },
    pages: {
      loadsPerRun: pageLoads ?? (quick ? QUICK_PAGE_PLAN : DEFAULT_PAGE_PLAN).loadsPerRun,
      runs: pageRuns ?? (quick ? QUICK_PAGE_PLAN : DEFAULT_PAGE_PLAN).runs,
    },
  };
}

function wholeNumber(arg: string): number {
  const value = arg.slice(arg.indexOf('=') + 1);
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`${arg}: give a whole number of 1 or more.\n\n${BENCH_USAGE}`);
  return Number(value);
}
