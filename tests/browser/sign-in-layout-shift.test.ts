import type { Page } from 'playwright-core';
import { DESKTOP_VIEWPORT, useBrowserSuite } from '../../testing/system/browser-suite';
import { waitForSlot } from '../../testing/system/slot-page';

jest.setTimeout(90_000);

const suite = useBrowserSuite();

/** Cumulative layout shift at or under 0.1 is "good" in Core Web Vitals; the sign-in page keeps well below it. */
const BOUND = 0.05;

/** How late GET /slots answers here: after the page's code has loaded, as on a slow link or a busy server. */
const SLOTS_DELAY_MS = 400;

/**
 * Serves the sign-in page as an older server did, or one whose public slots were not known: its session data says
 * nobody is signed in, without the public slots (`{"me":null}`), so the host asks GET /slots and the slots this file
 * delays arrive after the form has been drawn. With them inlined (the server's page as it is), nothing is late:
 * sign-in-inlined-slots.test.ts.
 */
async function withoutInlinedSlots(page: Page): Promise<void> {
  await page.route(
    (url) => url.pathname === '/login',
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      const html = (await response.text()).replace(
        /(<script type="application\/json" id="slots-session-data">)\{"me":null,"slots":.*?\}(<\/script>)/s,
        '$1{"me":null}$2',
      );
      if (!html.includes('{"me":null}</script>')) throw new Error('The sign-in page carries no signed-out data.');
      await route.fulfill({ response, body: html });
    },
  );
}

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
      await withoutInlinedSlots(page);
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

/**
 * Records when the sign-in form's password field first appeared (performance.now()), and the form's top and left at
 * each animation frame from then on: read by {@link formRecord}.
 */
const RECORD_FORM = `
window.__form = { shownAt: null, positions: [] };
const watch = () => {
  const form = document.querySelector('form.login__form');
  if (form && form.querySelector('input[name="password"]')) {
    if (window.__form.shownAt === null) window.__form.shownAt = performance.now();
    const box = form.getBoundingClientRect();
    const last = window.__form.positions[window.__form.positions.length - 1];
    if (!last || last.top !== box.top || last.left !== box.left) window.__form.positions.push({ top: box.top, left: box.left });
  }
  requestAnimationFrame(watch);
};
requestAnimationFrame(watch);
`;

interface FormRecord {
  /** How long after the page's last script before it the form showed (ms): the wait between code and form. */
  afterCode: number;
  /** The form's distinct positions since it showed: one while it has not moved. */
  positions: { top: number; left: number }[];
}

async function formRecord(page: Page): Promise<FormRecord> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => {
    const form = (window as unknown as { __form: { shownAt: number; positions: { top: number; left: number }[] } })
      .__form;
    // The code that drew it: the host's scripts that had arrived before it showed (the entry and the shell's chunks,
    // preloaded), not the remotes' (loaded beside the shell, never waited for).
    const scripts = performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.startsWith('/assets/') && entry.name.endsWith('.js'))
      .map((entry) => (entry as PerformanceResourceTiming).responseEnd)
      .filter((end) => end <= form.shownAt);
    return { afterCode: form.shownAt - Math.max(0, ...scripts), positions: form.positions };
  });
}

/**
 * The shell once waited a second for GET /slots after its code had run before drawing the sign-in page, so it showed
 * the form more than this after the code arrived; now it takes running the code, the modules' 150 ms and the first
 * render (about 550 ms on a machine at a load of 18 on two cores). The bound is the old wait itself: as wide as it can
 * be while a shell that waits for GET /slots still fails it.
 */
const FORM_SHOWN_WITHIN_MS = 1_000;

describe('the sign-in form with a slow GET /slots', () => {
  it.each([
    ['answers after 2 s', 2_000],
    ['never answers', null],
  ] as const)(
    'shows at once, takes typing, and does not move when the slots arrive: GET /slots %s',
    async (_name, delay) => {
      const { page, log } = await suite.newPage({ viewport: DESKTOP_VIEWPORT });
      let release: () => void = () => undefined;
      const hung = new Promise<void>((resolve) => (release = resolve));
      let answered = false;
      await page.route(
        (url) => url.pathname === '/slots',
        async (route) => {
          if (delay === null) {
            // Held until the test ends: a server that never answers.
            await hung;
            await route.abort().catch(() => undefined);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, delay));
          answered = true;
          await route.continue();
        },
      );
      await withoutInlinedSlots(page);
      await page.addInitScript(RECORD_SHIFTS);
      await page.addInitScript(RECORD_FORM);
      try {
        await page.goto('/login');
        const username = page.locator('form input[name="username"]');
        await username.waitFor();
        expect(answered).toBe(false);
        const shown = await formRecord(page);
        expect(shown.afterCode).toBeLessThan(FORM_SHOWN_WITHIN_MS);
        // Focused as drawn (autofocus), and typing goes into it while GET /slots is still out.
        expect(await username.evaluate((input) => input === document.activeElement)).toBe(true);
        await page.keyboard.type('admin');
        await expect(username.inputValue()).resolves.toBe('admin');

        if (delay !== null) {
          // The slots of every location around the form arrive, late: the banner and notices that go above it.
          await waitForSlot(page, 'header-banner', 'MaintenanceNotice');
          await waitForSlot(page, 'global-before-content', 'SystemStatus');
          await waitForSlot(page, 'login-before-form', 'LoginNotice');
          await waitForSlot(page, 'login-after-form', 'AccountHelp');
          await waitForSlot(page, 'login-sidebar', 'LoginSidebarPromo');
          expect(answered).toBe(true);
        } else {
          // Longer than the shell ever waited: still no slots, still the form where it was.
          await page.waitForTimeout(1_500);
        }
        const { positions } = await formRecord(page);
        expect(positions).toEqual([shown.positions[0]]);
        const { score, moved } = await layoutShift(page);
        expect(score < BOUND || moved).toBe(true);
        expect(log.pageErrors).toEqual([]);
      } finally {
        release();
      }
    },
  );
});
