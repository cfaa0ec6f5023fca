import type { Browser } from 'playwright-core';
import type { RecordListPayload } from '../../shared';
import { requestJson, signIn } from '../../tests/multi-instance/support/session-client';
import { launchChromium } from '../../testing/system/chromium';
import type { ServerProcess } from '../../testing/system/server-process';
import { measurePageLoad, renderedSlots, type PageLoad, type PageVisit } from '../browser/page-load';
import type { ExpectedSlots } from '../browser/slots-ready-probe';
import type { BenchContext } from '../harness/bench-context';
import { median } from '../harness/median';
import { BENCH_DEMO_PASSWORD, BENCH_DEMO_USERNAME, startRealServer } from '../harness/real-server';
import type { PageLoadResult, PageLoadSide } from '../report/bench-results';
import { BUNDLED_DIST_DIR, PRODUCT_DIST_DIR } from './front-end-build';

/** Federated / bundled: the price of loading the components at run time, for every page and cache state. */
export const PAGE_LOAD_MAX_RATIO = 1.15;

/** A page the benchmark loads, and how. */
export interface BenchedPage {
  name: string;
  /** `{article}` stands for the id of the first article of the demo admin's tenant (ids depend on the seeding). */
  path: string;
  /** Signed in as the demo admin (through `POST /login` in the browser context, before the timed load). */
  signedIn: boolean;
  /**
   * `cold`: a new browser context per load (empty cache). `warm`: the same page loaded once untimed in the context
   * first, so the timed load finds the host's and the remotes' files in the browser cache.
   */
  cache: 'cold' | 'warm';
  loads: number;
}

export const BENCHED_PAGES: readonly BenchedPage[] = [
  { name: 'Sign-in page', path: '/login', signedIn: false, cache: 'cold', loads: 7 },
  { name: 'Dashboard', path: '/', signedIn: true, cache: 'cold', loads: 5 },
  { name: 'Dashboard', path: '/', signedIn: true, cache: 'warm', loads: 5 },
  { name: 'Record edit page', path: '/resources/articles/{article}/edit', signedIn: true, cache: 'cold', loads: 5 },
  { name: 'Record edit page', path: '/resources/articles/{article}/edit', signedIn: true, cache: 'warm', loads: 5 },
];

/**
 * Each page in Chromium as the product builds it (host + remotes through Module Federation) against the same host
 * with the same components bundled in (bench/bundled-host), until every slot of the page is rendered. Both are
 * served by the same server entry, each from the bench's own build folder, so the build is the only difference;
 * loads of the two alternate.
 */
export async function benchPageLoads(
  context: BenchContext,
  pages: readonly BenchedPage[] = BENCHED_PAGES,
  loadsOverride?: number,
): Promise<PageLoadResult[]> {
  const servers: ServerProcess[] = [];
  let browser: Browser | undefined;
  try {
    const federated = await startRealServer(context, {
      name: 'pages-federated',
      entry: 'bench/servers/bench-server-main.ts',
      env: { BENCH_DIST_DIR: PRODUCT_DIST_DIR },
    });
    servers.push(federated);
    const bundled = await startRealServer(context, {
      name: 'pages-bundled',
      entry: 'bench/servers/bench-server-main.ts',
      env: { BENCH_DIST_DIR: BUNDLED_DIST_DIR },
    });
    servers.push(bundled);
    browser = await launchChromium();
    // Both servers seed the same demo data into fresh databases, so the same ids.
    const article = await firstArticleId(federated.url);
    const results: PageLoadResult[] = [];
    for (const page of pages) {
      const resolved = { ...page, path: page.path.replace('{article}', String(article)) };
      results.push(await benchPage(browser, resolved, federated.url, bundled.url, loadsOverride ?? page.loads));
    }
    return results;
  } finally {
    await browser?.close();
    for (const server of servers) await server.stop();
  }
}

async function benchPage(
  browser: Browser,
  page: BenchedPage,
  federatedOrigin: string,
  bundledOrigin: string,
  loads: number,
): Promise<PageLoadResult> {
  const visit = (origin: string): PageVisit => ({
    url: `${origin}${page.path}`,
    signIn: page.signedIn ? { username: BENCH_DEMO_USERNAME, password: BENCH_DEMO_PASSWORD } : undefined,
    warm: page.cache === 'warm',
  });
  const federatedVisit = visit(federatedOrigin);
  const bundledVisit = visit(bundledOrigin);
  // One settled load of each (untimed) shows what the page renders, and warms the servers up.
  const expected = await renderedSlots(browser, federatedVisit);
  assertSameSlots(page, expected, await renderedSlots(browser, bundledVisit));

  const federatedLoads: PageLoad[] = [];
  const bundledLoads: PageLoad[] = [];
  for (let index = 0; index < loads; index += 1) {
    const order: Array<[PageVisit, PageLoad[]]> =
      index % 2 === 0
        ? [
            [federatedVisit, federatedLoads],
            [bundledVisit, bundledLoads],
          ]
        : [
            [bundledVisit, bundledLoads],
            [federatedVisit, federatedLoads],
          ];
    for (const [target, samples] of order) samples.push(await measurePageLoad(browser, target, expected));
  }
  const federatedSide = summarise(federatedLoads);
  const bundledSide = summarise(bundledLoads);
  return {
    name: page.name,
    path: page.path,
    signedIn: page.signedIn,
    cache: page.cache,
    loads,
    slotComponents: Object.entries(expected).map(([location, names]) => `${location}: ${names.join(' + ')}`),
    federated: federatedSide,
    bundled: bundledSide,
    ratio: federatedSide.medianMs / bundledSide.medianMs,
    maximumRatio: PAGE_LOAD_MAX_RATIO,
  };
}

async function firstArticleId(origin: string): Promise<number> {
  const cookie = await signIn(origin, BENCH_DEMO_USERNAME, BENCH_DEMO_PASSWORD);
  const answer = await requestJson(origin, '/api/resources/articles/records', { cookie });
  const first = (answer.body as RecordListPayload | null)?.records[0];
  if (answer.status !== 200 || !first) throw new Error(`No demo article to edit on ${origin} (${answer.status}).`);
  return first.id;
}

function summarise(loads: PageLoad[]): PageLoadSide {
  return {
    medianMs: median(loads.map((load) => load.readyMs)),
    timesMs: loads.map((load) => load.readyMs),
    requests: median(loads.map((load) => load.requests)),
    bytes: median(loads.map((load) => load.bytes)),
  };
}

// The two variants must wait for the same thing, and for something: a page that renders no slot would time nothing.
function assertSameSlots(page: BenchedPage, federated: ExpectedSlots, bundled: ExpectedSlots): void {
  const describe = (slots: ExpectedSlots) => JSON.stringify(Object.entries(slots).sort());
  if (Object.keys(federated).length === 0) {
    throw new Error(`The federated ${page.path} rendered no slot at all; is the build complete (npm run build)?`);
  }
  if (describe(federated) !== describe(bundled)) {
    throw new Error(
      `The two variants of ${page.path} render different slots: federated ${describe(federated)}, bundled ${describe(bundled)}.`,
    );
  }
}
