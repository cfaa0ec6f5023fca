import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { RecordListPayload } from '../../shared';
import { makeSelfSignedCert, type SelfSignedCert } from '../../testing/server/self-signed-cert';
import { launchChromium } from '../../testing/system/chromium';
import type { ServerProcess } from '../../testing/system/server-process';
import {
  measurePageLoad,
  navigationProtocol,
  renderedSlots,
  sendsSlotEvents,
  type PageLoad,
  type PageVisit,
} from '../browser/page-load';
import {
  mainThreadTimeByPackage,
  profilePageLoad,
  sourceMapResolver,
  type ProfiledLoad,
} from '../browser/page-profile';
import type { ExpectedSlots } from '../browser/slots-ready-probe';
import type { BenchContext } from '../harness/bench-context';
import {
  DEFAULT_PAGE_PLAN,
  type BenchedPageName,
  type PageProtocol,
  type PageSuitePlan,
} from '../harness/bench-options';
import { median } from '../harness/median';
import { percentile } from '../harness/percentile';
import { BENCH_DEMO_PASSWORD, BENCH_DEMO_USERNAME, startRealServer } from '../harness/real-server';
import type { PageLoadResult, PageLoadSide } from '../report/bench-results';
import { renderPageProfile } from '../report/render-page-profile';
import { REPOSITORY_REMOTES } from '../../webpack.config';
import { BUNDLED_DIST_DIR, PLAIN_DIST_DIR, PRODUCT_DIST_DIR } from './front-end-build';

/** Federated / bundled: the price of loading the components at run time, for every page and cache state. */
export const PAGE_LOAD_MAX_RATIO = 1.2;
/**
 * Federated / plain Module Federation (bench/plain-federation): what the product's work on loading is worth against
 * the setup a team would build instead, for every page and cache state, in one run (issue 52).
 */
export const PLAIN_PAGE_LOAD_MAX_RATIO = 0.85;

/** A page the benchmark loads, and how. */
export interface BenchedPage {
  /** What `--pages` calls it. */
  key: BenchedPageName;
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
  /** Slot events as shipped (`on`), or switched off in both variants (page-load.ts), to show what they cost. */
  slotEvents: 'on' | 'off';
}

/** A page without its cache state and events switch. */
type PageTemplate = Omit<BenchedPage, 'cache' | 'slotEvents'>;
const signedInPage = (key: BenchedPageName, name: string, path: string): PageTemplate => ({
  key,
  name,
  path,
  signedIn: true,
});

const SIGN_IN: PageTemplate = { key: 'login', name: 'Sign-in page', path: '/login', signedIn: false };
const DASHBOARD = signedInPage('dashboard', 'Dashboard', '/');
const RECORD_LIST = signedInPage('list', 'Record list', '/resources/articles');
const RECORD_VIEW = signedInPage('record', 'Record page', '/resources/articles/{article}');
const RECORD_EDIT = signedInPage('edit', 'Record edit page', '/resources/articles/{article}/edit');
const NEW_RECORD = signedInPage('new', 'New record page', '/resources/articles/new');

export const BENCHED_PAGES: readonly BenchedPage[] = [
  { ...SIGN_IN, cache: 'cold', slotEvents: 'on' },
  { ...SIGN_IN, cache: 'cold', slotEvents: 'off' },
  { ...SIGN_IN, cache: 'warm', slotEvents: 'on' },
  { ...DASHBOARD, cache: 'cold', slotEvents: 'on' },
  { ...DASHBOARD, cache: 'cold', slotEvents: 'off' },
  { ...DASHBOARD, cache: 'warm', slotEvents: 'on' },
  { ...DASHBOARD, cache: 'warm', slotEvents: 'off' },
  { ...RECORD_LIST, cache: 'cold', slotEvents: 'on' },
  { ...RECORD_LIST, cache: 'warm', slotEvents: 'on' },
  { ...RECORD_VIEW, cache: 'cold', slotEvents: 'on' },
  { ...RECORD_VIEW, cache: 'warm', slotEvents: 'on' },
  { ...RECORD_EDIT, cache: 'cold', slotEvents: 'on' },
  { ...RECORD_EDIT, cache: 'warm', slotEvents: 'on' },
  { ...NEW_RECORD, cache: 'cold', slotEvents: 'on' },
  { ...NEW_RECORD, cache: 'warm', slotEvents: 'on' },
];

/** What the browser's navigation entry must say (`nextHopProtocol`) for each protocol of the plan. */
const NEXT_HOP_PROTOCOL: Record<PageProtocol, string> = { http1: 'http/1.1', h2: 'h2', https1: 'http/1.1' };

interface Origins {
  federatedOrigin: string;
  bundledOrigin: string;
  plainOrigin: string;
}

/** The three servers (product, bundled, plain), and the browser that reaches them, for one protocol of the plan. */
interface ProtocolSetup extends Origins {
  protocol: PageProtocol;
  browser: Browser;
}

/**
 * Each page in Chromium as the product builds it (host + remotes through Module Federation) against two baselines,
 * until every slot of the page is rendered: the same host with the same components bundled in (bench/bundled-host),
 * and the same host and components as a plain Module Federation setup (bench/plain-federation: the plugin's
 * defaults, none of the product's loading work). All three are served by the same server entry, each from the
 * bench's own build folder, so the build is the only difference; loads of the three alternate, each side first in
 * turn, so they share the machine's moments. The whole list (the plan's pages of it) is measured `plan.runs` times in
 * a row (same servers and browser), so a goal can be counted only when consecutive runs agree; and all of it over each
 * protocol of the plan: plain HTTP/1.1, and HTTPS with HTTP/2 (or HTTP/1.1) from servers given a certificate made for
 * the run.
 */
export async function benchPageLoads(
  context: BenchContext,
  pages: readonly BenchedPage[] = BENCHED_PAGES,
  plan: PageSuitePlan = DEFAULT_PAGE_PLAN,
): Promise<PageLoadResult[]> {
  const servers: ServerProcess[] = [];
  const browsers: Browser[] = [];
  let cert: SelfSignedCert | undefined;
  try {
    const startServers = async (tls: SelfSignedCert | undefined): Promise<Origins> => {
      const suffix = tls ? '-tls' : '';
      const tlsEnv = tls ? { TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile } : {};
      const start = async (side: string, distDir: string) => {
        const server = await startRealServer(context, {
          name: `pages-${side}${suffix}`,
          entry: 'bench/servers/bench-server-main.ts',
          env: { BENCH_DIST_DIR: distDir, ...tlsEnv },
          https: tls !== undefined,
        });
        servers.push(server);
        return server.url;
      };
      return {
        federatedOrigin: await start('federated', PRODUCT_DIST_DIR),
        bundledOrigin: await start('bundled', BUNDLED_DIST_DIR),
        plainOrigin: await start('plain', PLAIN_DIST_DIR),
      };
    };
    // The HTTPS servers' certificate is made for the run; Chromium trusts it by its key, so it caches as it would on
    // a real site (with certificate errors merely ignored it caches nothing, and a warm load would be a cold one).
    if (plan.protocols.some((protocol) => protocol !== 'http1')) cert = makeSelfSignedCert();
    const trustCert = cert ? [`--ignore-certificate-errors-spki-list=${cert.spkiHash}`] : [];
    const launch = async (flags: readonly string[] = []) => {
      const browser = await launchChromium([...trustCert, ...flags]);
      browsers.push(browser);
      return browser;
    };
    const setups: ProtocolSetup[] = [];
    let cleartext: Origins | undefined;
    let secure: Origins | undefined;
    let browser: Browser | undefined;
    for (const protocol of plan.protocols) {
      const origins =
        protocol === 'http1' ? (cleartext ??= await startServers(undefined)) : (secure ??= await startServers(cert));
      // HTTPS with HTTP/1.1: the same servers, reached by a Chromium that does not offer HTTP/2.
      const protocolBrowser = protocol === 'https1' ? await launch(['--disable-http2']) : (browser ??= await launch());
      setups.push({ protocol, browser: protocolBrowser, ...origins });
    }
    const first = setups[0];
    if (!first) throw new Error('The page suite was given no protocol to load the pages over.');
    // Every server seeds the same demo data into a fresh database, so the same ids.
    const article = await firstArticleId(first.browser, first.federatedOrigin);
    const resolved = pages
      .filter((page) => plan.pages.includes(page.key))
      .map((page) => ({ ...page, path: page.path.replace('{article}', String(article)) }));
    const results: PageLoadResult[] = [];
    for (const setup of setups) {
      const expected = new Map<BenchedPage, ExpectedSlots>();
      for (const page of resolved) expected.set(page, await checkVariants(setup, page));
      for (let run = 1; run <= plan.runs; run += 1) {
        for (const page of resolved) {
          const slots = expected.get(page) as ExpectedSlots;
          results.push(await benchPage(setup, page, slots, plan.loadsPerRun, run));
        }
      }
      if (context.cpuProfileDir) {
        const folder = path.join(context.cpuProfileDir, 'pages');
        await mkdir(folder, { recursive: true });
        for (const page of resolved) {
          const name = `${setup.protocol}-${page.name}-${page.cache}-events-${page.slotEvents}`.replace(/ /g, '-');
          const report = await profilePage(setup, page, expected.get(page) as ExpectedSlots);
          await writeFile(path.join(folder, `${name.toLowerCase()}.txt`), report);
        }
      }
    }
    return results;
  } finally {
    for (const browser of browsers) await browser.close();
    for (const server of servers) await server.stop();
    cert?.dir.remove();
  }
}

function visitOf(page: BenchedPage, origin: string): PageVisit {
  return {
    url: `${origin}${page.path}`,
    signIn: page.signedIn ? { username: BENCH_DEMO_USERNAME, password: BENCH_DEMO_PASSWORD } : undefined,
    warm: page.cache === 'warm',
    slotEvents: page.slotEvents,
  };
}

/**
 * Untimed loads before any figure: the three variants render the same slots (what the timed loads wait for), and
 * all send slot events exactly when the page says they are on. They also warm the servers up.
 */
async function checkVariants(setup: ProtocolSetup, page: BenchedPage): Promise<ExpectedSlots> {
  const { browser, federatedOrigin, bundledOrigin, plainOrigin } = setup;
  const expected = await renderedSlots(browser, visitOf(page, federatedOrigin));
  assertSameSlots(page, expected, 'bundled', await renderedSlots(browser, visitOf(page, bundledOrigin)));
  assertSameSlots(page, expected, 'plain Module Federation', await renderedSlots(browser, visitOf(page, plainOrigin)));
  for (const [variant, origin] of [
    ['federated', federatedOrigin],
    ['bundled', bundledOrigin],
    ['plain Module Federation', plainOrigin],
  ] as const) {
    const sent = await sendsSlotEvents(browser, visitOf(page, origin));
    if (sent !== (page.slotEvents === 'on')) {
      throw new Error(
        `The ${variant} ${page.path} with slot events ${page.slotEvents} ${sent ? 'sent' : 'sent no'} slot events.`,
      );
    }
    const protocol = await navigationProtocol(browser, visitOf(page, origin));
    if (protocol !== NEXT_HOP_PROTOCOL[setup.protocol]) {
      throw new Error(
        `The ${variant} ${page.path} (${setup.protocol}) was loaded over ${protocol}, not ${NEXT_HOP_PROTOCOL[setup.protocol]}.`,
      );
    }
  }
  return expected;
}

async function benchPage(
  setup: ProtocolSetup,
  page: BenchedPage,
  expected: ExpectedSlots,
  loads: number,
  run: number,
): Promise<PageLoadResult> {
  const { browser } = setup;
  const federatedLoads: PageLoad[] = [];
  const bundledLoads: PageLoad[] = [];
  const plainLoads: PageLoad[] = [];
  const sides: Array<[PageVisit, PageLoad[]]> = [
    [visitOf(page, setup.federatedOrigin), federatedLoads],
    [visitOf(page, setup.bundledOrigin), bundledLoads],
    [visitOf(page, setup.plainOrigin), plainLoads],
  ];
  // One alternation of the three: each load round starts with the next side (product, bundled, plain; bundled,
  // plain, product; ...), so none is always first after another page's loads or always last.
  for (let index = 0; index < loads; index += 1) {
    for (let turn = 0; turn < sides.length; turn += 1) {
      const [target, samples] = sides[(index + turn) % sides.length]!;
      samples.push(await measurePageLoad(browser, target, expected));
    }
  }
  const federatedSide = summarise(federatedLoads);
  const bundledSide = summarise(bundledLoads);
  const plainSide = summarise(plainLoads);
  return {
    name: page.name,
    path: page.path,
    signedIn: page.signedIn,
    cache: page.cache,
    slotEvents: page.slotEvents,
    protocol: setup.protocol,
    run,
    loads,
    slotComponents: Object.entries(expected).map(([location, names]) => `${location}: ${names.join(' + ')}`),
    federated: federatedSide,
    bundled: bundledSide,
    ratio: federatedSide.medianMs / bundledSide.medianMs,
    maximumRatio: PAGE_LOAD_MAX_RATIO,
    plain: {
      side: plainSide,
      ratio: federatedSide.medianMs / plainSide.medianMs,
      maximumRatio: PLAIN_PAGE_LOAD_MAX_RATIO,
    },
  };
}

/** Profiled loads per page and side: after the timed ones, since the profiler slows the page it watches. */
const PROFILED_LOADS = 6;

/**
 * Where each variant of the page spends its main thread until every slot is rendered, by package or repository
 * folder (bench/browser/page-profile.ts), federated and bundled loads alternating: `--cpu-prof` writes it beside the
 * servers' profiles, so what a page's ratio is made of can be read from any run instead of from a profile by hand.
 */
async function profilePage(setup: ProtocolSetup, page: BenchedPage, expected: ExpectedSlots): Promise<string> {
  const remoteFolders = Object.fromEntries(REPOSITORY_REMOTES.map((remote) => [remote.descriptor.name, remote.folder]));
  const federated = { visit: visitOf(page, setup.federatedOrigin), loads: [] as ProfiledLoad[] };
  const bundled = { visit: visitOf(page, setup.bundledOrigin), loads: [] as ProfiledLoad[] };
  for (let index = 0; index < PROFILED_LOADS; index += 1) {
    for (const side of index % 2 === 0 ? [federated, bundled] : [bundled, federated]) {
      side.loads.push(await profilePageLoad(setup.browser, side.visit, expected));
    }
  }
  const summary = (loads: ProfiledLoad[], distDir: string) => ({
    msByPackage: mainThreadTimeByPackage(
      loads.map((load) => load.profile),
      sourceMapResolver(distDir, remoteFolders),
    ),
    readyMs: loads.map((load) => load.readyMs),
  });
  const title =
    `${page.name} (${page.path}), ${page.cache}, slot events ${page.slotEvents}, ${setup.protocol}: ` +
    `${PROFILED_LOADS} profiled loads a side`;
  return renderPageProfile(title, summary(federated.loads, PRODUCT_DIST_DIR), summary(bundled.loads, BUNDLED_DIST_DIR));
}

/** Through the browser: it accepts the run's own certificate when the servers speak HTTPS. */
async function firstArticleId(browser: Browser, origin: string): Promise<number> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const signIn = await context.request.post(`${origin}/login`, {
      data: { username: BENCH_DEMO_USERNAME, password: BENCH_DEMO_PASSWORD },
    });
    if (signIn.status() !== 200) throw new Error(`Signing in on ${origin} answered ${signIn.status()}.`);
    const answer = await context.request.get(`${origin}/api/resources/articles/records`);
    const first = answer.ok() ? ((await answer.json()) as RecordListPayload).records[0] : undefined;
    if (!first) throw new Error(`No demo article to edit on ${origin} (${answer.status()}).`);
    return first.id;
  } finally {
    await context.close();
  }
}

function summarise(loads: PageLoad[]): PageLoadSide {
  const times = loads.map((load) => load.readyMs);
  return {
    medianMs: median(times),
    p25Ms: percentile(times, 25),
    p75Ms: percentile(times, 75),
    timesMs: loads.map((load) => load.readyMs),
    requests: median(loads.map((load) => load.requests)),
    bytes: median(loads.map((load) => load.bytes)),
  };
}

// The variants must wait for the same thing, and for something: a page that renders no slot would time nothing.
function assertSameSlots(page: BenchedPage, federated: ExpectedSlots, variant: string, other: ExpectedSlots): void {
  const describe = (slots: ExpectedSlots) => JSON.stringify(Object.entries(slots).sort());
  if (Object.keys(federated).length === 0) {
    throw new Error(`The federated ${page.path} rendered no slot at all; is the build complete (npm run build)?`);
  }
  if (describe(federated) !== describe(other)) {
    throw new Error(
      `The federated and the ${variant} ${page.path} render different slots: federated ${describe(federated)}, ` +
        `${variant} ${describe(other)}.`,
    );
  }
}
