import type { Browser } from 'playwright-core';
import { launchChromium } from '../../testing/system/chromium';
import type { ServerProcess } from '../../testing/system/server-process';
import { measurePageLoad, renderedSlots, type PageLoad } from '../browser/page-load';
import type { ExpectedSlots } from '../browser/slots-ready-probe';
import type { BenchContext } from '../harness/bench-context';
import { median } from '../harness/median';
import { startRealServer } from '../harness/real-server';
import type { LoginPageResult, PageLoadSide } from '../report/bench-results';
import { BUNDLED_DIST_DIR, PRODUCT_DIST_DIR } from './front-end-build';

export const LOGIN_PAGE_MAX_RATIO = 1.25;
export const LOGIN_PAGE_LOADS = 7;

/**
 * The sign-in page in Chromium, cold cache each time, as the product builds it (host + team_marketing through
 * Module Federation) against the same host with the same components bundled in (bench/bundled-host). Both are
 * served by the same server entry, each from the bench's own build folder, so the build is the only difference.
 */
export async function benchLoginPage(context: BenchContext, loads = LOGIN_PAGE_LOADS): Promise<LoginPageResult> {
  const servers: ServerProcess[] = [];
  let browser: Browser | undefined;
  try {
    const federated = await startRealServer(context, {
      name: 'login-federated',
      entry: 'bench/servers/bench-server-main.ts',
      env: { BENCH_DIST_DIR: PRODUCT_DIST_DIR },
    });
    servers.push(federated);
    const bundled = await startRealServer(context, {
      name: 'login-bundled',
      entry: 'bench/servers/bench-server-main.ts',
      env: { BENCH_DIST_DIR: BUNDLED_DIST_DIR },
    });
    servers.push(bundled);
    browser = await launchChromium();

    const federatedUrl = `${federated.url}/login`;
    const bundledUrl = `${bundled.url}/login`;
    // One settled load of each (untimed) shows what the page renders, and warms the servers up.
    const expected = await renderedSlots(browser, federatedUrl);
    const bundledExpected = await renderedSlots(browser, bundledUrl);
    assertSameSlots(expected, bundledExpected);

    const federatedLoads: PageLoad[] = [];
    const bundledLoads: PageLoad[] = [];
    for (let index = 0; index < loads; index += 1) {
      const order: Array<[string, PageLoad[]]> =
        index % 2 === 0
          ? [
              [federatedUrl, federatedLoads],
              [bundledUrl, bundledLoads],
            ]
          : [
              [bundledUrl, bundledLoads],
              [federatedUrl, federatedLoads],
            ];
      for (const [url, samples] of order) samples.push(await measurePageLoad(browser, url, expected));
    }
    const federatedSide = summarise(federatedLoads);
    const bundledSide = summarise(bundledLoads);
    return {
      loads,
      slotComponents: Object.entries(expected).map(([location, names]) => `${location}: ${names.join(' + ')}`),
      federated: federatedSide,
      bundled: bundledSide,
      ratio: federatedSide.medianMs / bundledSide.medianMs,
      maximumRatio: LOGIN_PAGE_MAX_RATIO,
    };
  } finally {
    await browser?.close();
    for (const server of servers) await server.stop();
  }
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
function assertSameSlots(federated: ExpectedSlots, bundled: ExpectedSlots): void {
  const describe = (slots: ExpectedSlots) => JSON.stringify(Object.entries(slots).sort());
  if (Object.keys(federated).length === 0) {
    throw new Error('The federated sign-in page rendered no slot at all; is the build complete (npm run build)?');
  }
  if (describe(federated) !== describe(bundled)) {
    throw new Error(
      `The two sign-in pages render different slots: federated ${describe(federated)}, bundled ${describe(bundled)}.`,
    );
  }
}
