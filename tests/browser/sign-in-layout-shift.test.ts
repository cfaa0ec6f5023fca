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
 * Records, from before the page's scripts run (a MutationObserver over the whole document), what the app first builds
 * into #root in place of index.html's boot message, and each time a sign-in form is put into the page: read by
 * {@link formBuilds}. Also the form's top and left at each animation frame once shown, and the scripts the page added
 * after its load event (see {@link shellStarted}).
 */
const RECORD_FORM = `
window.__form = { booted: false, firstBuild: null, insertions: 0, positions: [], scriptsAfterLoad: [] };
new MutationObserver((records) => {
  const root = document.getElementById('root');
  for (const record of records) {
    for (const node of record.addedNodes) {
      // 'complete' from just before the load event.
      if (node.nodeName === 'SCRIPT' && document.readyState === 'complete') window.__form.scriptsAfterLoad.push(node.src);
      if (root && node.nodeType === 1 && (node.matches('form.login__form') || node.querySelector('form.login__form'))) {
        window.__form.insertions += 1;
      }
    }
  }
  if (!root) return;
  if (root.querySelector(':scope > .boot')) window.__form.booted = true;
  // The app's first DOM: the first time #root, once parsed with the boot message, holds anything else (one commit,
  // seen whole here).
  const bootOnly = root.children.length === 1 && root.firstElementChild.matches('.boot');
  if (window.__form.booted && window.__form.firstBuild === null && !bootOnly) {
    window.__form.firstBuild = { form: root.querySelector('form.login__form input[name="password"]') !== null };
  }
}).observe(document, { childList: true, subtree: true });
const watch = () => {
  const form = document.querySelector('form.login__form');
  if (form && form.querySelector('input[name="password"]')) {
    const box = form.getBoundingClientRect();
    const last = window.__form.positions[window.__form.positions.length - 1];
    if (!last || last.top !== box.top || last.left !== box.left) window.__form.positions.push({ top: box.top, left: box.left });
  }
  requestAnimationFrame(watch);
};
requestAnimationFrame(watch);
`;

interface FormBuilds {
  /** What the app first built into #root: whether the form was in it (null: nothing built yet). */
  firstBuild: { form: boolean } | null;
  /** How many times a sign-in form was put into the page: one, while it is never drawn again later. */
  insertions: number;
  /** The form's distinct positions since it showed: one while it has not moved. */
  positions: { top: number; left: number }[];
  /** The scripts the page added after its load event: none while its code all loads with the page. */
  scriptsAfterLoad: string[];
}

async function formBuilds(page: Page): Promise<FormBuilds> {
  // Two frames of the page's own (its clock running): the positions recorded at each.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => (window as unknown as { __form: FormBuilds }).__form);
}

/**
 * The shell once waited a second for GET /slots before drawing the sign-in page; now it waits only for the modules'
 * moment (SHELL_WAITS_FOR_MODULES_MS, host/bootstrap.tsx). Said without the wall clock, which a fast machine passes and
 * a loaded one fails: the page's own clock is held still while its code loads and runs, then moved on by just under
 * the old wait, GET /slots held unanswered all the while. A shell that waits for GET /slots draws nothing by then,
 * however fast the machine; one that does not draws the form in the first DOM it builds, however slow.
 */
const OLD_SHELL_WAIT_MS = 1_000;

/**
 * Opens the sign-in page and waits, in real time, for its load event: the moment the shell's wait has begun. The load
 * event waits for every script the page adds while it loads (the entry's, then the chunks behind its async boundary:
 * React and the shell, and the remote modules it hints), and the entry calls the shell as the last of them has run,
 * without a timer: with the page's clock held, the shell has made its root and is waiting, whatever it waits for.
 * Said with the page's own event, not with React's marks on its container (which change with React's releases).
 */
async function shellStarted(page: Page): Promise<void> {
  await page.goto('/login', { waitUntil: 'load' });
}

/** Why the form did not show: a shell that waits for GET /slots, or one whose code came after the page's load. */
async function notShown(page: Page): Promise<Error> {
  // Read at once: the page's animation frames wait for its clock, held still.
  const late = await page.evaluate(() => (window as unknown as { __form: FormBuilds }).__form.scriptsAfterLoad);
  const why = late.length > 0 ? `, or its code came after the page's load: ${late.join(', ')}` : '';
  return new Error(`No sign-in form ${OLD_SHELL_WAIT_MS - 2} ms after the shell began: it waits for GET /slots${why}.`);
}

describe('the sign-in form with a slow GET /slots', () => {
  it.each([
    ['answers after 2 s', 2_000],
    ['never answers', null],
  ] as const)(
    'shows at once, takes typing, and does not move when the slots arrive: GET /slots %s',
    async (_name, delay) => {
      const { page, log } = await suite.newPage({ viewport: DESKTOP_VIEWPORT });
      // GET /slots held until the form is drawn; then answered after `delay`, or never.
      let drawn: () => void = () => undefined;
      const formDrawn = new Promise<void>((resolve) => (drawn = resolve));
      let release: () => void = () => undefined;
      const hung = new Promise<void>((resolve) => (release = resolve));
      let answered = false;
      await page.route(
        (url) => url.pathname === '/slots',
        async (route) => {
          await formDrawn;
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
      // The page's clock held still from its start: its timers fire only as the test moves it on.
      // (Installed a minute back, so that pausing at now is never in its past however slow the machine.)
      const start = Date.now();
      await page.clock.install({ time: start - 60_000 });
      await page.clock.pauseAt(start);
      try {
        await shellStarted(page);
        await page.clock.runFor(OLD_SHELL_WAIT_MS - 2);
        const username = page.locator('form input[name="username"]');
        await username.waitFor({ timeout: 15_000 }).catch(async () => {
          throw await notShown(page);
        });
        drawn();
        await page.clock.resume();
        // At once: the form is in the first DOM the app builds, put there once, with GET /slots unanswered.
        const shown = await formBuilds(page);
        expect([shown.firstBuild, shown.insertions, answered]).toEqual([{ form: true }, 1, false]);
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
        const { positions, insertions } = await formBuilds(page);
        // Not drawn again, nor moved, as the slots arrive.
        expect(insertions).toBe(1);
        expect(positions).toEqual([shown.positions[0]]);
        const { score, moved } = await layoutShift(page);
        expect(score < BOUND || moved).toBe(true);
        expect(log.pageErrors).toEqual([]);
      } finally {
        drawn();
        release();
      }
    },
  );
});
