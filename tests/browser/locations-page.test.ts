import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startAppServer } from '../../testing/system/app-server';
import { assertBuilt } from '../../testing/system/build-output';
import { launchChromium } from '../../testing/system/chromium';
import { renderedLines } from '../../testing/system/rendered-lines';
import { signIn } from '../../testing/system/sign-in';
import { waitForSlot } from '../../testing/system/slot-page';
import { scrollsSideways, waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * The location catalogue page in Chromium, on a real server: every location with its facts and what fills it in
 * order, each slot's placement and rule; a slot whose rule fails for the signed-in user is listed as hidden, and is
 * absent from the dashboard itself, and the slot inspector says why.
 */
jest.setTimeout(120_000);

let browser: Browser;

beforeAll(async () => {
  assertBuilt();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

it('lists every location and what fills it, in order, with each rule; a slot hidden by its rule is not on the page', async () => {
  const config = {
    remotes: [
      {
        name: 'team_marketing',
        slots: {
          'dashboard-after-cards': [
            {
              component: 'WelcomeCard',
              id: 'viewers',
              props: { title: 'For viewers' },
              priority: 10,
              visibleWhen: { roles: ['viewer'] },
            },
            { component: 'WelcomeCard', props: { title: 'After the links' }, after: 'ShortcutLinks' },
          ],
        },
      },
    ],
  };
  const server = await startAppServer({
    prepare: async (dir) => {
      const file = path.join(dir, 'remotes.json');
      await writeFile(file, JSON.stringify(config));
      return { REMOTES_CONFIG: file };
    },
  });
  const context = await browser.newContext({ baseURL: server.url });
  try {
    const page = await context.newPage();
    await signIn(page);
    await waitForSlot(page, 'dashboard-after-cards', 'ShortcutLinks');
    const cards = page.locator('[data-slot-location="dashboard-after-cards"]');
    await cards.getByText('After the links').waitFor();
    expect(await cards.getByText('For viewers').count()).toBe(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Locations' }).click();
    await page.getByRole('heading', { name: 'Locations', level: 1 }).waitFor();
    const sections = page.locator('[data-catalogue-location]');
    await sections.first().waitFor();
    expect(await sections.count()).toBe(15);

    const banner = page.locator('[data-catalogue-location="header-banner"]');
    await expect(banner.innerText()).resolves.toMatch(/Visibility\s+public/);
    const actions = page.locator('[data-catalogue-location="resource-page-actions"]');
    await expect(actions.innerText()).resolves.toMatch(/Context props\s+resource, resourceId, record/);

    const dashboard = page.getByRole('region', { name: 'Slots of dashboard-after-cards' });
    const rows = await dashboard.locator('tbody tr').allInnerTexts();
    expect(rows[0]).toMatch(
      /^1\s+viewers\s+WelcomeCard\s+team_marketing\s+configuration\s+priority 10\s+role viewer\s+hidden by its rule$/,
    );
    const links = rows.findIndex((row) => /\sShortcutLinks\s/.test(row));
    expect(links).toBeGreaterThan(0);
    expect(rows[links + 1]).toMatch(
      /WelcomeCard\s+team_marketing\s+configuration\s+priority 50, after ShortcutLinks\s+always\s+shown$/,
    );

    // The inspector explains it too, without its props.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Slot inspector' }).click();
    const registered = page.getByRole('region', { name: /Every slot of every location/ });
    await registered.locator('[data-hidden-by-rule]').waitFor();
    // The rule's sentence alone: the slot has no problem, and a "None" after the sentence read as part of it.
    await expect(
      registered.locator('[data-slot-problems]', { has: page.locator('[data-hidden-by-rule]') }).innerText(),
    ).resolves.toBe('hidden from you by its rule: shown only for role viewer');
  } finally {
    await context.close();
    await server.stop();
  }
});

/**
 * Each line a name of the catalogue (a location's heading, a fact, a slot's cell) is broken into, and each place one
 * of them ends neither at a space nor after a `-`, `.` or `/`.
 */
async function catalogueLines(page: Page): Promise<{ headings: string[][]; unexpectedBreaks: string[] }> {
  const unexpectedBreaks: string[] = [];
  for (const { text, lines } of await renderedLines(page, 'main [data-catalogue-location] :is(h2, dd, td)')) {
    lines.slice(0, -1).forEach((line, index) => {
      if (!/[\s./-]$/.test(line)) unexpectedBreaks.push(`${line}|${lines[index + 1]} (${text})`);
    });
  }
  const headings = (await renderedLines(page, 'main [data-catalogue-location] h2')).map(({ lines }) => lines);
  return { headings, unexpectedBreaks };
}

it.each([390, 360, 320])(
  'breaks the names of the catalogue at %i px only at a space or after a `-`, `.` or `/`',
  async (width) => {
    const server = await startAppServer();
    const context = await browser.newContext({ baseURL: server.url, viewport: { width, height: 844 } });
    try {
      const page = await context.newPage();
      await signIn(page);
      await page.goto('/locations');
      await page.locator('[data-catalogue-location]').first().waitFor();
      await waitForSettledPage(page);
      const { headings, unexpectedBreaks } = await catalogueLines(page);
      expect(unexpectedBreaks).toEqual([]);
      expect(headings).toHaveLength(15);
      // Named as before: `<wbr>` is no text, for a screen reader either.
      await page.getByRole('heading', { name: 'resource-before-relations', exact: true, level: 2 }).waitFor();
      if (width === 320) {
        // The longest location takes two lines there, broken after a hyphen.
        expect(headings.filter((lines) => lines.length > 1)).toContainEqual(['resource-before-', 'relations']);
      }
      expect(await scrollsSideways(page)).toBe(false);
    } finally {
      await context.close();
      await server.stop();
    }
  },
);
