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
  'registration',
  'startup',
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
  /** Target servers run with `--cpu-prof`, and the pages are profiled in Chromium; profiles go beside the logs. */
  cpuProfile: boolean;
  plans: { main: LoadPlan; sizes: LoadPlan };
  pages: PageSuitePlan;
}

/**
 * How the browser reaches the servers of the page suite. `http1`: plain HTTP/1.1 (behind a TLS proxy, the server's
 * own protocol); `h2`: HTTPS with HTTP/2, served by the server itself (TLS_CERT_FILE, TLS_KEY_FILE); `https1`: the
 * same HTTPS servers with HTTP/2 switched off in Chromium, which tells what TLS costs apart from what HTTP/2 gains.
 */
export const PAGE_PROTOCOLS = ['http1', 'h2', 'https1'] as const;
export type PageProtocol = (typeof PAGE_PROTOCOLS)[number];

/**
 * The pages of the page suite, by short name (bench/suites/page-loads.ts: the sign-in page, the dashboard, a
 * resource's record list, one record's page, its edit page, the new record page). A run may measure some of them:
 * more loads of the pages whose verdict is close, in the time the whole suite would take with fewer.
 */
export const BENCHED_PAGE_NAMES = ['login', 'dashboard', 'list', 'record', 'edit', 'new'] as const;
export type BenchedPageName = (typeof BENCHED_PAGE_NAMES)[number];

/** How the page suite is run: loads per page, state and side in each run, how many runs in a row, over what. */
export interface PageSuitePlan {
  loadsPerRun: number;
  /** A page's goal counts as met only when every run meets it, so at least 2 for a verdict. */
  runs: number;
  /** Every page is measured over each, in this order. */
  protocols: readonly PageProtocol[];
  /** The pages measured, in the suite's order whatever the order given: every one unless `--pages` names some. */
  pages: readonly BenchedPageName[];
}

/** 20 loads: a median and quartiles that one slow load cannot move; 2 runs: a goal met by chance once is not met. */
export const DEFAULT_PAGE_PLAN: PageSuitePlan = Object.freeze({
  loadsPerRun: 20,
  runs: 2,
  protocols: ['http1'] as const,
  pages: BENCHED_PAGE_NAMES,
});
const QUICK_PAGE_PLAN: PageSuitePlan = Object.freeze({ ...DEFAULT_PAGE_PLAN, loadsPerRun: 1 });

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
  --page-protocols=<list>  what the pages are loaded over, comma-separated: http1 (plain HTTP/1.1, default), h2
                   (HTTPS with HTTP/2 from the server itself), https1 (the same HTTPS, HTTP/2 off in Chromium)
  --pages=<list>   only these pages of the page suite, comma-separated: ${BENCHED_PAGE_NAMES.join(', ')} (default all)
  --cpu-prof       run the target servers with node --cpu-prof, and profile each page in Chromium after its timed
                   loads, by package, federated against bundled (both in the run's log folder)`;

/** Parses `process.argv.slice(2)`; throws with the usage on anything unknown. */
export function parseBenchOptions(args: readonly string[]): BenchOptions {
  let only = new Set<BenchmarkName>(BENCHMARK_NAMES);
  let example = false;
  let skipBuild = false;
  let cpuProfile = false;
  let quick = false;
  let pageLoads: number | undefined;
  let pageRuns: number | undefined;
  let pageProtocols: PageProtocol[] | undefined;
  let pages: BenchedPageName[] | undefined;
  for (const arg of args) {
    if (arg === '--example') example = true;
    else if (arg === '--skip-build') skipBuild = true;
    else if (arg === '--cpu-prof') cpuProfile = true;
    else if (arg === '--quick') quick = true;
    else if (arg.startsWith('--page-loads=')) pageLoads = wholeNumber(arg);
    else if (arg.startsWith('--page-runs=')) pageRuns = wholeNumber(arg);
    else if (arg.startsWith('--page-protocols=')) pageProtocols = protocolList(arg);
    else if (arg.startsWith('--pages=')) pages = pageList(arg);
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
      protocols: pageProtocols ?? DEFAULT_PAGE_PLAN.protocols,
      pages: pages ?? DEFAULT_PAGE_PLAN.pages,
    },
  };
}

function wholeNumber(arg: string): number {
  const value = arg.slice(arg.indexOf('=') + 1);
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`${arg}: give a whole number of 1 or more.\n\n${BENCH_USAGE}`);
  return Number(value);
}

function protocolList(arg: string): PageProtocol[] {
  return distinctNames(arg, PAGE_PROTOCOLS);
}

/** The pages named, in the suite's order (the order of a run does not depend on how they were typed). */
function pageList(arg: string): BenchedPageName[] {
  const named = new Set<string>(distinctNames(arg, BENCHED_PAGE_NAMES));
  return BENCHED_PAGE_NAMES.filter((name) => named.has(name));
}

/** The comma-separated names after `--option=`, each one of `allowed` and none twice; throws with the usage. */
function distinctNames<Name extends string>(arg: string, allowed: readonly Name[]): Name[] {
  const names = arg
    .slice(arg.indexOf('=') + 1)
    .split(',')
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(allowed as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0 || new Set(names).size !== names.length) {
    throw new Error(`${arg}: give distinct names among ${allowed.join(', ')}.\n\n${BENCH_USAGE}`);
  }
  return names as Name[];
}
