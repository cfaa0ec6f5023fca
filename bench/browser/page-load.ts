import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { SLOT_EVENTS_PATH } from '../../shared';
import { READY_GLOBAL, slotsReadyProbe, type ExpectedSlots } from './slots-ready-probe';

export interface PageLoad {
  /** Milliseconds from navigation start until every expected slot was rendered. */
  readyMs: number;
  /** Requests the page made until the network was idle. */
  requests: number;
  /** Response bytes (headers and bodies as received) of those requests. */
  bytes: number;
}

/** Desktop width, so the sign-in page renders its sidebar. */
const VIEWPORT = { width: 1280, height: 800 };

/** What one load is: the page, whether the visitor is signed in first, and whether the cache is warm. */
export interface PageVisit {
  url: string;
  /** Signs in through `POST /login` in the new browser context (its cookie jar), before anything is timed. */
  signIn?: { username: string; password: string } | undefined;
  /** Loads the page once, untimed, in the same context first: the timed load then finds the files in the cache. */
  warm?: boolean;
  /**
   * `off`: the page runs without `navigator.sendBeacon`, so the host's slot-event sender never starts (what it does
   * in a browser without it: host/core/send-slot-events.ts). `on` (default): the page sends its events as shipped.
   */
  slotEvents?: 'on' | 'off';
}

/** Run before the page's own scripts: the host's browserChannel() then finds no sendBeacon and sends nothing. */
const SLOT_EVENTS_OFF_SCRIPT = `Object.defineProperty(Navigator.prototype, 'sendBeacon', { value: undefined, configurable: true });`;

/** A new browser context (empty cache, no cookies), signed in when the visit says so. */
async function openContext(browser: Browser, visit: PageVisit): Promise<BrowserContext> {
  // The HTTPS servers of the page suite use a certificate made for the run: the browser trusts it by its key
  // (page-loads.ts), the sign-in below goes through Playwright's own HTTP client, which must be told to.
  const context = await browser.newContext({ viewport: VIEWPORT, ignoreHTTPSErrors: true });
  if (visit.slotEvents === 'off') await context.addInitScript({ content: SLOT_EVENTS_OFF_SCRIPT });
  if (visit.signIn) {
    const response = await context.request.post(new URL('/login', visit.url).href, { data: visit.signIn });
    if (response.status() !== 200) {
      await context.close();
      throw new Error(`Signing in for ${visit.url} answered ${response.status()}: ${await response.text()}`);
    }
  }
  return context;
}

/**
 * A new browser context as openContext makes it, in which the visit's page has been loaded once, untimed, when the
 * visit is a warm one: a page opened next finds the host's and the remotes' files in the browser cache.
 */
export async function openWarmedContext(
  browser: Browser,
  visit: PageVisit,
  timeoutMs: number,
): Promise<BrowserContext> {
  const context = await openContext(browser, visit);
  if (visit.warm) {
    try {
      const warmUp = await context.newPage();
      await warmUp.goto(visit.url, { waitUntil: 'networkidle', timeout: timeoutMs });
      await warmUp.close();
    } catch (error) {
      await context.close();
      throw error;
    }
  }
  return context;
}

/**
 * One load of the visit's page in a new browser context (signed in first, and warmed by an untimed load of the same
 * page, when the visit says so): navigation, then the time at which the probe saw every expected slot rendered, and
 * the traffic of the timed load.
 */
export async function measurePageLoad(
  browser: Browser,
  visit: PageVisit,
  expected: ExpectedSlots,
  timeoutMs = 30_000,
): Promise<PageLoad> {
  const context = await openWarmedContext(browser, visit, timeoutMs);
  const url = visit.url;
  try {
    const page = await context.newPage();
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.addInitScript({ content: slotsReadyProbe(expected) });
    await page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
    const readyMs = await waitForReadyTime(page, timeoutMs);
    await page.waitForLoadState('networkidle', { timeout: timeoutMs });
    let bytes = 0;
    for (const request of requests) {
      try {
        const sizes = await request.sizes();
        bytes += sizes.responseHeadersSize + sizes.responseBodySize;
      } catch {
        // A request that got no answer adds no bytes.
      }
    }
    return { readyMs, requests: requests.length, bytes };
  } finally {
    await context.close();
  }
}

const POLL_MS = 25;

/**
 * Polls for the time the probe recorded. The probe stamps the moment itself, so the polling interval does not
 * enter the figure. `page.evaluate` of a string runs through the DevTools protocol, which the page's
 * Content-Security-Policy (no 'unsafe-eval') does not block, unlike a string predicate of `waitForFunction`.
 */
export async function waitForReadyTime(page: Page, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await page.evaluate<unknown>(`window.${READY_GLOBAL}`);
    if (typeof value === 'number') return value;
    if (Date.now() > deadline) {
      throw new Error(`The slots of ${page.url()} were not all rendered within ${timeoutMs} ms.`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * What a page shows once settled: location -> rendered component names of every `[data-slot-location]` wrapper
 * that has slots. Used once per variant to check the page renders what the benchmark waits for.
 */
export async function renderedSlots(browser: Browser, visit: PageVisit, timeoutMs = 30_000): Promise<ExpectedSlots> {
  const context = await openContext(browser, visit);
  try {
    const page = await context.newPage();
    await page.goto(visit.url, { waitUntil: 'networkidle', timeout: timeoutMs });
    // A string, like the probe: a transpiled function could reference helpers the page does not have.
    return await page.evaluate<ExpectedSlots>(`(() => {
      const found = {};
      for (const wrapper of document.querySelectorAll('[data-slot-location]')) {
        const components = Array.from(wrapper.children)
          .filter((child) => child.hasAttribute('data-slot-component'))
          .map((child) => child.getAttribute('data-slot-component'));
        if (components.length > 0) found[wrapper.getAttribute('data-slot-location')] = components;
      }
      return found;
    })()`);
  } finally {
    await context.close();
  }
}

/**
 * The protocol the browser loaded the visit's page over, as its navigation entry says (`http/1.1`, `h2`): the check
 * that a variant of the page suite measures what it names.
 */
export async function navigationProtocol(browser: Browser, visit: PageVisit, timeoutMs = 30_000): Promise<string> {
  const context = await openContext(browser, visit);
  try {
    const page = await context.newPage();
    await page.goto(visit.url, { waitUntil: 'networkidle', timeout: timeoutMs });
    return await page.evaluate<string>(`performance.getEntriesByType('navigation')[0].nextHopProtocol`);
  } finally {
    await context.close();
  }
}

/**
 * Whether a load of the visit's page sends slot events (a request to SLOT_EVENTS_PATH) within `waitMs` of going
 * network-idle: the check that the events switch of a visit does what it says, on both variants of a page.
 */
export async function sendsSlotEvents(browser: Browser, visit: PageVisit, waitMs = 5_000): Promise<boolean> {
  const context = await openContext(browser, visit);
  try {
    const page = await context.newPage();
    let sent = false;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === SLOT_EVENTS_PATH) sent = true;
    });
    await page.goto(visit.url, { waitUntil: 'networkidle', timeout: 30_000 });
    const deadline = Date.now() + waitMs;
    while (!sent && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    return sent;
  } finally {
    await context.close();
  }
}
