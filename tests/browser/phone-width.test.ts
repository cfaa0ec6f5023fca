import type { Locator, Page } from 'playwright-core';
import type { AppServer } from '../../testing/system/app-server';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { addToken } from '../../testing/system/npm-command';
import { renderedLines } from '../../testing/system/rendered-lines';
import { signIn } from '../../testing/system/sign-in';
import { firstRecord, scrollsSideways, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(180_000);

const suite = useBrowserSuite();

/** A phone held upright, as staff use the admin away from a desk: touch, 390 px wide; and a narrower one. */
const PHONE = { width: 390, height: 844 };
const NARROW_PHONE = { width: 360, height: 740 };

/**
 * What a page shows on a phone that a finger or iOS gets wrong: each control or link smaller than 24 by 24 px
 * (WCAG 2.5.8), a link in a sentence aside (the criterion's own exception); each text field, choice or text area
 * whose text is under 16 px (iOS Safari zooms the page into it on focus, and the page is left scrolling sideways).
 */
function phoneProblems(page: Page): Promise<{ smallTargets: string[]; zoomingFields: string[] }> {
  return page.evaluate(() => {
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    };
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? element.getAttribute('name') ?? '').trim().slice(0, 40)}"`;
    // A link in running text: laid out inline, among more text than its own.
    const inSentence = (element: Element) =>
      element.tagName === 'A' &&
      getComputedStyle(element).display === 'inline' &&
      (element.parentElement?.textContent ?? '').trim().length > (element.textContent ?? '').trim().length + 2;
    const smallTargets: string[] = [];
    const zoomingFields: string[] = [];
    const targets = document.querySelectorAll(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"]',
    );
    for (const target of targets) {
      // The skip links wait out of sight until they have the focus (the page's, and a list's way to its bulk bar).
      if (!shown(target) || target.matches('.skip-link, .to-bulk-actions:not(:focus)')) continue;
      const box = target.getBoundingClientRect();
      if ((box.width < 24 || box.height < 24) && !inSentence(target)) {
        smallTargets.push(`${name(target)} ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
      const field =
        target.matches('select, textarea') ||
        (target instanceof HTMLInputElement && !/^(checkbox|radio|submit|button|file|range|color)$/.test(target.type));
      if (field && parseFloat(getComputedStyle(target).fontSize) < 16) {
        zoomingFields.push(`${name(target)} ${getComputedStyle(target).fontSize}`);
      }
    }
    return { smallTargets, zoomingFields };
  });
}

/**
 * Each word of the page's lists (records, releases) split over lines, with its width unbroken, in rem. Not through
 * renderedLines on purpose: the question is which word broke and how wide it is whole (a URL wider than any column
 * may break, a narrower word may not), which a range over the word answers; lines of a cell do not say its width.
 */
function splitWords(page: Page): Promise<Array<{ word: string; rem: number }>> {
  return page.evaluate(() => {
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
    const split: Array<{ word: string; rem: number }> = [];
    for (const cell of document.querySelectorAll('main :is(.table--records, .table--releases) :is(td, th)')) {
      const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        for (const word of (text.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          const pieces = [...range.getClientRects()].filter((box) => box.width > 0);
          if (new Set(pieces.map((box) => box.top)).size < 2) continue;
          split.push({ word: word[0], rem: pieces.reduce((sum, box) => sum + box.width, 0) / rem });
        }
      }
    }
    return split;
  });
}

/**
 * The words of the page's lists broken though narrower than the widest a list's column gets (15rem, pages.css):
 * such a word wraps whole at its spaces, never broken where its column was squeezed below it ("Head/line"). Only a
 * wider one (a URL, a hash) may break, inside its cell.
 */
async function brokenWords(page: Page): Promise<string[]> {
  return (await splitWords(page)).filter(({ rem }) => rem <= 15).map(({ word }) => word);
}

async function expectFitsAPhone(page: Page, name: string, width: number): Promise<void> {
  await waitForSettledPage(page);
  expect({
    page: name,
    width,
    scrollsSideways: await scrollsSideways(page),
    ...(await phoneProblems(page)),
    brokenWords: await brokenWords(page),
  }).toEqual({
    page: name,
    width,
    scrollsSideways: false,
    smallTargets: [],
    zoomingFields: [],
    brokenWords: [],
  });
}

/** A build id as a team may tag a release: 34 characters without a space, the widest row of a releases table. */
const LONG_VERSION = '2026.11.29-build.1742+sha.0740d3c4';

/** Ticks the first row of the list shown; resolves with its bulk bar, once shown. */
async function tickFirstRow(page: Page): Promise<Locator> {
  await page.locator('main tbody input[type="checkbox"]').first().check();
  const bar = page.locator('section.bulk-actions');
  await bar.waitFor();
  return bar;
}

/**
 * Publishes twelve releases of team_marketing (more than ten rows), each at the server's own build, the long version
 * last (listed first, newest first), with a team token as a team's pipeline does; none is activated.
 */
async function publishTwelveReleases(server: AppServer): Promise<string[]> {
  const token = await addToken(server, 'team_marketing');
  const versions = [...Array.from({ length: 11 }, (_, index) => `1.${index}.0`), LONG_VERSION];
  for (const version of versions) {
    const response = await fetch(`${server.url}/api/remotes/team_marketing/releases`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ version, entry: `${server.url}/remotes/team_marketing/mf-manifest.json` }),
    });
    if (response.status !== 201) throw new Error(`publishing ${version}: ${response.status} ${await response.text()}`);
  }
  return versions.reverse();
}

/** The pages staff open on a phone, with the states that have markup of their own (a form's refusal, an open panel). */
async function phonePages(page: Page) {
  const article = await firstRecord(page, 'articles');
  return [
    { name: 'dashboard', path: '/' },
    {
      name: 'articles with their filters and settings open',
      path: '/resources/articles?search=spring',
      prepare: async () => {
        await page.locator('summary', { hasText: 'Filters' }).click();
        await page.locator('summary', { hasText: 'Columns and rows' }).click();
      },
    },
    { name: 'authors', path: '/resources/authors?sort=email&order=desc' },
    { name: 'article', path: `/resources/articles/${article.id}` },
    {
      name: 'article edit with a refused save',
      path: `/resources/articles/${article.id}/edit`,
      prepare: async () => {
        await page.locator('form[data-resource-form] [name="title"]').fill('');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByRole('alert').getByText('needs attention').waitFor();
      },
    },
    { name: 'new article', path: '/resources/articles/new' },
    {
      name: 'articles with a row ticked (the bulk bar)',
      path: '/resources/articles',
      prepare: async () => {
        await tickFirstRow(page);
      },
    },
    { name: 'recently deleted articles', path: '/resources/articles/deleted' },
    { name: 'placements', path: '/placements' },
    { name: 'releases, twelve of team_marketing (publishTwelveReleases)', path: '/releases' },
    { name: 'slot inspector', path: '/inspect' },
    { name: 'record not found', path: '/resources/articles/999999' },
    { name: 'unknown address', path: '/settings' },
  ];
}

/**
 * The lines of each cell of the slot inspector's tables (the props shown aside: JSON keeps its own lines), and each
 * place one of them ends inside a word: not at a space, nor after a path's `/`.
 */
async function inspectorLines(page: Page): Promise<{ cells: Array<[string, string[]]>; unexpectedBreaks: string[] }> {
  const selector = 'main .inspector table :is(td, th)';
  const laidOut = await renderedLines(page, selector, { skip: 'pre' });
  // Each cell's table region, to tell the pages' tables from the slots' (the same document order as renderedLines).
  const regions = await page.$$eval(selector, (found) =>
    found.map((cell) => cell.closest('[role="region"]')?.getAttribute('aria-label')),
  );
  const cells = laidOut.map(({ text, lines }, index): [string, string[]] => [`${regions[index]}: ${text}`, lines]);
  const unexpectedBreaks = cells.flatMap(([key, lines]) =>
    lines.slice(0, -1).flatMap((line, index) => (/[\s/]$/.test(line) ? [] : [`${line}|${lines[index + 1]} (${key})`])),
  );
  return { cells, unexpectedBreaks };
}

describe.each([
  ['390', PHONE],
  ['360', NARROW_PHONE],
])('on a %s px phone', (_label, viewport) => {
  it('no page scrolls sideways, every control is a 24 px target, no field makes iOS zoom, and axe finds nothing', async () => {
    await publishTwelveReleases(suite.server);
    const { page } = await suite.newPage({ viewport, isMobile: true, hasTouch: true });
    await page.goto('/login');
    await expectFitsAPhone(page, 'sign-in', viewport.width);
    await signIn(page);
    for (const { name, path, prepare } of await phonePages(page)) {
      await page.goto(path);
      await waitForSettledPage(page);
      await prepare?.();
      await expectFitsAPhone(page, name, viewport.width);
      if (viewport === PHONE) expect({ page: name, axe: await axeViolations(page) }).toEqual({ page: name, axe: [] });
    }
  });

  it('breaks the slot inspector’s names and paths only at a space or after a `/`: header-banner whole', async () => {
    const { page } = await suite.newPage({ viewport, isMobile: true, hasTouch: true });
    await signIn(page);
    await waitForSettledPage(page);
    await page.goto('/inspect');
    await page.getByRole('heading', { name: 'Remotes' }).waitFor();
    await waitForSettledPage(page);
    const { cells, unexpectedBreaks } = await inspectorLines(page);
    // The pages seen in this tab (the dashboard, the sign-in page) and the registered slots: one line each.
    const banners = cells.filter(([key]) => key.endsWith(': header-banner')).map(([, lines]) => lines);
    expect(banners.length).toBeGreaterThanOrEqual(2);
    expect(banners.filter((lines) => lines.length > 1)).toEqual([]);
    expect(unexpectedBreaks).toEqual([]);
    // A manifest's path wraps between its folders ("mf-" above "manifest.json" before), its file name whole.
    const [, entry] = cells.find(([key]) => key.endsWith(': /remotes/team_marketing/mf-manifest.json')) ?? [];
    expect(entry?.length).toBeGreaterThan(1);
    expect(entry?.at(-1)).toBe('mf-manifest.json');
    expect(await scrollsSideways(page)).toBe(false);
  });

  it('wraps a list’s words at their spaces: only a word wider than any column (a URL) breaks, inside its cell', async () => {
    const url = `https://example.com/${'a'.repeat(80)}`;
    const { page } = await suite.newPage({ viewport, isMobile: true, hasTouch: true });
    await signIn(page);
    const created = await page.request.post('/api/resources/articles/records', {
      data: { title: 'Headline cadence of the spring catalogue', label: url },
      headers: { Origin: suite.url },
    });
    expect(created.status()).toBe(201);
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    // The seeded labels ("Headline cadence"), titles and authors ("Ada Lovelace") whole; the URL alone broken.
    expect(await brokenWords(page)).toEqual([]);
    expect((await splitWords(page)).map(({ word }) => word)).toEqual([url]);
    // Its column no wider than the room beside the pinned actions: the whole cell is seen by scrolling the list.
    const [cell, actions] = await Promise.all([
      page.locator('main tbody td').filter({ hasText: url }).boundingBox(),
      page.locator('main tbody td.table__actions').first().boundingBox(),
    ]);
    const frame = await page.locator('main .table-wrap').boundingBox();
    expect(cell!.width).toBeLessThanOrEqual(frame!.width - actions!.width);
    expect(await scrollsSideways(page)).toBe(false);
  });

  it('shows each of twelve releases whole beside its pinned actions, a long version wrapped between its parts', async () => {
    const versions = await publishTwelveReleases(suite.server);
    const { page } = await suite.newPage({ viewport, isMobile: true, hasTouch: true });
    await signIn(page);
    await page.goto('/releases');
    await waitForSettledPage(page);
    const frame = page.getByRole('region', { name: 'Releases of team_marketing' });
    const rows = await frame.evaluate((element) =>
      [...element.querySelectorAll('tbody tr')].map((row) => {
        const version = row.querySelector('th')!;
        const actions = row.querySelector('td.table__actions')!.getBoundingClientRect();
        return {
          version: version.textContent,
          // Ends where the pinned actions begin (the frame not scrolled): nothing of it beneath them.
          besideActions: version.getBoundingClientRect().right <= actions.left + 1,
          // Its lines: the long one's in three parts (2026.11.29-, build.1742+, sha.0740d3c4), not letter by letter.
          lines: (() => {
            const text = document.createRange();
            text.selectNodeContents(version);
            return new Set([...text.getClientRects()].map((box) => Math.round(box.top))).size;
          })(),
        };
      }),
    );
    expect(rows.map((row) => row.version)).toEqual(versions);
    expect(rows.filter((row) => !row.besideActions)).toEqual([]);
    expect(rows.map((row) => row.lines)).toEqual([3, ...Array.from({ length: 11 }, () => 1)]);
    expect(await brokenWords(page)).toEqual([]);

    // The last row's actions, past the tenth, are on screen and pressed where they are shown.
    const last = frame.locator(`tr[data-release="${versions.at(-1)}"]`);
    await last.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 200));
    for (const name of [`Activate ${versions.at(-1)}`, `Preview ${versions.at(-1)}`]) {
      const box = (await last.getByRole('button', { name }).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      const pressed = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null,
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      );
      expect(pressed).toBe(name);
    }
    expect(await scrollsSideways(page)).toBe(false);
  });

  it('keeps the bulk bar to one row of 24 px targets, its Delete reached by Tab, clear of the rows', async () => {
    const { page } = await suite.newPage({ viewport, isMobile: true, hasTouch: true });
    await signIn(page);
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    const bar = await tickFirstRow(page);
    const shape = await bar.evaluate((element) => {
      const box = (each: Element) => each.getBoundingClientRect();
      const middles = [...element.children, ...element.querySelectorAll('.bulk-actions__set > *')].map((each) => {
        const { top, height } = box(each);
        return top + height / 2;
      });
      return {
        height: box(element).height,
        // One row: every part's middle on one line.
        spread: Math.max(...middles) - Math.min(...middles),
        smallestTarget: Math.min(...[...element.querySelectorAll('select, button')].map((each) => box(each).height)),
      };
    });
    // Four wrapped lines took 187 px, 22 % of the screen; one row is under a tenth of it.
    expect(shape.height).toBeLessThan(viewport.height / 10);
    expect(shape.spread).toBeLessThanOrEqual(2);
    expect(shape.smallestTarget).toBeGreaterThanOrEqual(24);

    // Delete selected, past the bar's right edge, is reached by Tab from the controls before it (shown, in part at
    // least: WCAG 2.4.11), and by a swipe along the bar, then whole and pressed where it is shown.
    await page.getByRole('button', { name: 'Set on selected' }).focus();
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Delete selected');
    const remove = page.getByRole('button', { name: 'Delete selected' });
    const inBar = async () => {
      const [button, row] = await Promise.all([remove.boundingBox(), bar.boundingBox()]);
      return {
        partly: button!.x < row!.x + row!.width && button!.x + button!.width > row!.x,
        whole: button!.x >= row!.x - 1 && button!.x + button!.width <= row!.x + row!.width + 1,
      };
    };
    expect((await inBar()).partly).toBe(true);
    await bar.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    expect(await inBar()).toEqual({ partly: true, whole: true });
    const box = (await remove.boundingBox())!;
    const pressed = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null,
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    );
    expect(pressed).toBe('Delete selected');
    expect(await scrollsSideways(page)).toBe(false);
  });
});

it('keeps the bulk bar as it was on a desktop: every action shown, none scrolled out of the bar', async () => {
  const { page } = await suite.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page);
  await page.goto('/resources/articles');
  await waitForSettledPage(page);
  const bar = await tickFirstRow(page);
  expect(await bar.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  expect(await bar.evaluate((element) => getComputedStyle(element).flexWrap)).toBe('wrap');
});

it('shows each link of the navigation row whole as Tab reaches it on a phone', async () => {
  const { page } = await suite.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
  await signIn(page);
  await page.goto('/');
  await waitForSettledPage(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const links = await nav.getByRole('link').allInnerTexts();
  await nav.getByRole('link', { name: 'Dashboard', exact: true }).focus();
  const cutOff: string[] = [];
  for (const label of links.slice(1)) {
    await page.keyboard.press('Tab');
    const seen = await page.evaluate(() => {
      const link = document.activeElement as HTMLElement;
      const row = link.closest('nav')!.getBoundingClientRect();
      const box = link.getBoundingClientRect();
      return { label: link.textContent, whole: box.left >= row.left - 0.5 && box.right <= row.right + 0.5 };
    });
    expect(seen.label).toBe(label);
    if (!seen.whole) cutOff.push(label);
  }
  // A link only partly in view (at 390 px, 13 of Placements' 109 px) was not scrolled to by the browser's focus.
  expect(cutOff).toEqual([]);
});

it('shows the current page’s link in the navigation row, whichever page a phone opens', async () => {
  const { page } = await suite.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
  await signIn(page);
  for (const [path, label] of [
    ['/placements', 'Placements'],
    ['/locations', 'Locations'],
    ['/inspect', 'Slot inspector'],
    ['/', 'Dashboard'],
  ] as const) {
    await page.goto(path);
    await waitForSettledPage(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const current = nav.getByRole('link', { name: label, exact: true });
    await expect(current.getAttribute('aria-current')).resolves.toBe('page');
    const [row, link] = await Promise.all([nav.boundingBox(), current.boundingBox()]);
    if (!row || !link) throw new Error(`The navigation or its ${label} link is not shown on ${path}.`);
    expect({ path, inView: link.x >= row.x && link.x + link.width <= row.x + row.width }).toEqual({
      path,
      inView: true,
    });
    // The row scrolled, not the page: the page's heading is still at the top.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  }
});
