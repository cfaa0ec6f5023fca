import type { Page } from 'playwright-core';
import type { RemoteHistoryPayload } from '../../shared';
import { instantInWords } from '../../shared/date-time-in-words';
import type { AppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { addToken } from '../../testing/system/npm-command';
import { signIn } from '../../testing/system/sign-in';
import { scrollsSideways, waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * The operators' and tool pages (slot inspector, releases) as staff read them in Chromium, at a desktop's 1280 px and
 * a phone's 390 px: a manifest's path on one line where there is room, captions read without scrolling a table to and
 * fro, a history's times whole and in the reader's zone, the history's hidden caption kept in its table.
 */
jest.setTimeout(120_000);

const suite = useBrowserSuite();

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Two releases of team_marketing, served from the server's own build of it; none active. */
async function publishTwo(server: AppServer): Promise<void> {
  const token = await addToken(server, 'team_marketing');
  for (const version of ['1.0.0', '2.0.0']) {
    const response = await fetch(`${server.url}/api/remotes/team_marketing/releases`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ version, entry: `${server.url}/remotes/team_marketing/mf-manifest.json` }),
    });
    if (response.status !== 201) throw new Error(`publishing ${version}: ${response.status} ${await response.text()}`);
  }
}

/** How many lines the text of each element `selector` finds takes. */
function linesOf(page: Page, selector: string): Promise<Array<{ text: string; lines: number }>> {
  return page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      const text = document.createRange();
      text.selectNodeContents(element);
      const tops = [...text.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top));
      return { text: element.textContent ?? '', lines: new Set(tops).size };
    }),
  );
}

async function openInspector(page: Page): Promise<void> {
  await signIn(page);
  await page.goto('/inspect');
  await page.getByRole('heading', { name: 'Remotes' }).waitFor();
  await waitForSettledPage(page);
}

async function openHistory(page: Page): Promise<void> {
  await signIn(page);
  await page.goto('/releases');
  await page.getByRole('button', { name: 'Show history' }).click();
  await page.getByRole('region', { name: 'History of team_marketing' }).locator('tbody tr').first().waitFor();
}

describe('the slot inspector', () => {
  it('keeps a remote’s manifest path on one line in a 1280 px window, its table still whole in its frame', async () => {
    const { page } = await suite.newPage({ viewport: DESKTOP });
    await openInspector(page);
    const entries = await linesOf(page, '[data-inspected-remote] td:nth-child(2)');
    expect(entries).toEqual([
      { text: '/remotes/team_marketing/mf-manifest.json', lines: 1 },
      { text: '/remotes/team_records/mf-manifest.json', lines: 1 },
    ]);
    const remotes = page.getByRole('region', { name: 'Every remote with its entry, status and components' });
    expect(await remotes.evaluate((frame) => frame.scrollWidth <= frame.clientWidth)).toBe(true);
  });

  it.each([
    ['1280', DESKTOP],
    ['1024', { width: 1024, height: 768 }],
  ] as const)(
    'fits the registered slots in their frame at %s px, every fact of a slot still in its row',
    async (_, viewport) => {
      const { page } = await suite.newPage({ viewport });
      await openInspector(page);
      const registered = page.getByRole('region', { name: /^Every slot of every location/ });
      expect(await registered.evaluate((frame) => [frame.scrollWidth <= frame.clientWidth, frame.scrollWidth])).toEqual(
        [true, expect.any(Number)],
      );
      // Nothing made room by leaving out: the demo's actions slot, its location, component, remote, source, visibility.
      await expect(registered.locator('tr[data-inspected-slot="ExportJsonAction"]').innerText()).resolves.toMatch(
        /^resource-page-actions\s+ExportJsonAction\s+team_records\s+code\s+protected\s+None\s/,
      );
    },
  );

  it('shows each table’s caption within its frame on a phone, wrapped, and still there once the table is scrolled', async () => {
    const { page } = await suite.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    await openInspector(page);
    const outside = async () =>
      page.locator('main .inspector__table').evaluateAll((frames) =>
        frames.flatMap((frame) => {
          const shown = frame.getBoundingClientRect();
          const caption = document.createRange();
          caption.selectNodeContents(frame.querySelector('caption')!);
          const words = caption.getBoundingClientRect();
          return words.left >= shown.left && words.right <= shown.right ? [] : [frame.getAttribute('aria-label')];
        }),
      );
    expect(await page.locator('main .inspector__table').count()).toBeGreaterThanOrEqual(4);
    expect(await outside()).toEqual([]);
    await page.locator('main .inspector__table').evaluateAll((frames) => {
      for (const frame of frames) frame.scrollLeft = frame.scrollWidth;
    });
    expect(await outside()).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
  });
});

describe('the release history', () => {
  it.each([
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const)(
    'keeps its hidden caption a caption: at the table’s top, taking no room, over no row, naming it (%s px)',
    async (_, viewport) => {
      await publishTwo(suite.server);
      const { page } = await suite.newPage({ viewport });
      await openHistory(page);
      const history = page.getByRole('region', { name: 'History of team_marketing' });
      await page.getByRole('table', { name: 'History of team_marketing, newest first' }).waitFor();
      const shape = await history.evaluate((frame) => {
        const table = frame.querySelector('table')!.getBoundingClientRect();
        const caption = frame.querySelector('caption')!;
        const box = caption.getBoundingClientRect();
        const firstRow = frame.querySelector('tbody tr')!.getBoundingClientRect();
        const overRow = [...caption.querySelectorAll('*'), caption].some((element) => {
          const each = element.getBoundingClientRect();
          return each.bottom > firstRow.top && each.top < firstRow.bottom && each.width > 0;
        });
        return {
          display: getComputedStyle(caption).display,
          atTheTop: Math.abs(box.top - table.top) < 1,
          height: box.height,
          overRow,
        };
      });
      expect(shape).toEqual({ display: 'table-caption', atTheTop: true, height: 0, overRow: false });
    },
  );

  it('gives each change’s time whole on one line on a phone, its zone not cut after “GMT-”', async () => {
    await publishTwo(suite.server);
    const { page } = await suite.newPage({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      timezoneId: 'America/New_York',
      locale: 'en-US',
    });
    await openHistory(page);
    const times = await linesOf(page, '.release-history tbody td:first-child');
    expect(times.length).toBe(3);
    for (const time of times) expect(time).toEqual({ text: expect.stringMatching(/ GMT-[45]$/), lines: 1 });
    expect(await scrollsSideways(page)).toBe(false);
  });
});

it('says when a refused change’s rollout moved in the reader’s zone and form, not in the server’s UTC', async () => {
  await publishTwo(suite.server);
  const { page } = await suite.newPage({ viewport: DESKTOP, timezoneId: 'America/New_York', locale: 'en-US' });
  await signIn(page);
  await page.goto('/releases');
  await waitForSettledPage(page);
  // Another operator's change after the page was shown: the page's own is refused, saying who moved it and when.
  const moved = await page.request.post('/api/remotes/team_marketing/activate', {
    data: { version: '1.0.0' },
    headers: { Origin: suite.url },
  });
  expect(moved.status()).toBe(200);
  const history = (await (
    await page.request.get('/api/remotes/team_marketing/history')
  ).json()) as RemoteHistoryPayload;
  const at = `${history.entries[0]!.at.slice(0, 16)}:00.000Z`;

  await page.getByRole('button', { name: 'Activate 2.0.0' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button').first().click();
  const refusal = page.locator('[data-releases-refused]');
  await refusal.waitFor();
  const text = await refusal.textContent();
  expect(text).toContain(`at ${instantInWords(at, ['en-US', 'en'], 'America/New_York')})`);
  expect(text).not.toContain('UTC');
  await expect(refusal.locator('time').getAttribute('datetime')).resolves.toBe(at);
});
