import type { Page } from 'playwright-core';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { waitForSlot } from '../../testing/system/slot-page';

jest.setTimeout(90_000);

const suite = useBrowserSuite();

/** Cumulative layout shift at or under 0.1 is "good" in Core Web Vitals; the sign-in page keeps well below it. */
const BOUND = 0.05;

/** How late GET /slots answers here: after the page's code has loaded, as on a slow link or a busy server. */
const SLOTS_DELAY_MS = 400;

/**
 * Records every layout shift from the start of the page (a PerformanceObserver for `layout-shift`, buffered), each
 * with the elements that moved and by how much, read by {@link layoutShift}.
 */
const RECORD_SHIFTS = `
window.__layoutShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    const name = (node) => {
      if (!node || node.nodeType !== 1) return node ? node.nodeName : 'a removed node';
      const classes = typeof node.className === 'string' ? node.className.trim().split(/\\s+/).filter(Boolean) : [];
      return node.tagName.toLowerCase() + classes.map((c) => '.' + c).join('');
    };
    window.__layoutShifts.push({
      value: entry.value,
      moved: entry.sources.map((source) =>
        name(source.node) + ' ' + Math.round(source.previousRect.y) + 'px -> ' + Math.round(source.currentRect.y) + 'px',
      ),
    });
  }
}).observe({ type: 'layout-shift', buffered: true });
`;

interface LayoutShift {
  /** The page's cumulative layout shift so far. */
  score: number;
  /** What moved, each shift's elements with their top before and after. */
  moved: string[];
}

async function layoutShift(page: Page): Promise<LayoutShift> {
  // Two frames: a shift is reported after the frame it happened in.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const shifts = await page.evaluate(
    () => (window as unknown as { __layoutShifts: { value: number; moved: string[] }[] }).__layoutShifts,
  );
  return {
    score: shifts.reduce((sum, shift) => sum + shift.value, 0),
    moved: shifts.map((shift) => `${shift.value.toFixed(3)}: ${shift.moved.join(', ')}`),
  };
}

describe('the cold sign-in page', () => {
  it.each([
    ['at 1280 px', { width: 1280, height: 900 }],
    ['on a phone, 390 px', { width: 390, height: 844 }],
  ])(
    'keeps what it has drawn in place while its public slots arrive (layout shift below 0.05) %s',
    async (_name, viewport) => {
      // A fresh context: nothing cached, the remotes and GET /slots fetched as on a first visit.
      const { page, log } = await suite.newPage({ viewport });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      // Each request a round trip away, not the loopback's none: the page's code arrives in turns, as it does.
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 40,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await page.route(
        (url) => url.pathname === '/slots',
        async (route) => {
          await new Promise((resolve) => setTimeout(resolve, SLOTS_DELAY_MS));
          await route.continue();
        },
      );
      await page.addInitScript(RECORD_SHIFTS);
      await page.goto('/login');

      // Everything the page shows: the form, the header banner, the slots around the form and the footer's.
      await page.locator('form input[name="password"]').waitFor();
      await waitForSlot(page, 'header-banner', 'MaintenanceNotice');
      await waitForSlot(page, 'global-before-content', 'SystemStatus');
      await waitForSlot(page, 'login-before-form', 'LoginNotice');
      await waitForSlot(page, 'login-before-form', 'Callout');
      await waitForSlot(page, 'login-after-form', 'AccountHelp');
      await waitForSlot(page, 'global-after-content', 'FooterLinks');
      if (viewport.width >= 1024) await waitForSlot(page, 'login-sidebar', 'LoginSidebarPromo');
      await page.waitForLoadState('networkidle');

      const { score, moved } = await layoutShift(page);
      // Over the bound, what moved is named first.
      expect(score < BOUND || moved).toBe(true);
      expect(score).toBeLessThan(BOUND);
      // The delayed GET /slots was the page's own (one, answered), not a second try.
      expect(log.requestsTo('GET', '/slots')).toHaveLength(1);
      expect(log.pageErrors).toEqual([]);
    },
  );
});
