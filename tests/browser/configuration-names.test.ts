import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startAppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { renderedLines } from '../../testing/system/rendered-lines';
import { signIn } from '../../testing/system/sign-in';
import { waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * The names of the configuration (a location, a slot's id) break alike in the location catalogue and the slot
 * inspector, in Chromium: whole in a table's cell (the table scrolls sideways), and in a heading between their parts
 * only when wider than the heading's line. The catalogue offered a break after every hyphen of a slot's id, which
 * its narrow table took (`welcome-` above `after-` above `links`) where the inspector kept the same id whole.
 */
jest.setTimeout(120_000);

const ID = 'welcome-after-links';
const LOCATION = 'dashboard-after-cards';

const suite = useBrowserSuite({
  startServer: () =>
    startAppServer({
      prepare: async (dir) => {
        const file = path.join(dir, 'remotes.json');
        const slot = { component: 'WelcomeCard', id: ID, props: { title: 'After the links' }, after: 'ShortcutLinks' };
        await writeFile(file, JSON.stringify({ remotes: [{ name: 'team_marketing', slots: { [LOCATION]: [slot] } }] }));
        return { REMOTES_CONFIG: file };
      },
    }),
  prestart: true,
});

/**
 * For each element `selector` finds whose text holds `name`: whether the name is on one line, and, for each element
 * broken onto more lines, whether its text on one line is wider than the element's box (the break was needed).
 */
async function namesLaidOut(
  page: Page,
  selector: string,
  name: string,
): Promise<{ whole: boolean[]; needless: string[] }> {
  const laidOut = await renderedLines(page, selector);
  const whole = laidOut
    .filter(({ text }) => text.includes(name))
    .map(({ lines }) => lines.some((line) => line.includes(name)));
  const broken = laidOut.flatMap(({ lines }, index) => (lines.length < 2 ? [] : [index]));
  const needlessAt = await page.evaluate(
    ({ selector, broken }) => {
      const elements = [...document.querySelectorAll(selector)];
      return broken.filter((index) => {
        const element = elements[index]!;
        const oneLine = element.cloneNode(true) as HTMLElement;
        oneLine.style.cssText = 'position: absolute; visibility: hidden; white-space: nowrap; width: max-content';
        element.parentElement!.append(oneLine);
        const style = getComputedStyle(element);
        const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const fits = oneLine.getBoundingClientRect().width <= room;
        oneLine.remove();
        return fits;
      });
    },
    { selector, broken },
  );
  return { whole, needless: needlessAt.map((index) => laidOut[index]!.lines.join('|')) };
}

it.each([320, 390, 1280])('keeps a slot’s id and its location whole on both pages at %i px', async (width) => {
  const { page } = await suite.newPage({ viewport: { width, height: 844 } });
  await signIn(page);

  await page.goto('/locations');
  await page.locator(`[data-catalogue-slot="${ID}"]`).waitFor();
  await waitForSettledPage(page);
  const catalogueTable = await namesLaidOut(page, '[data-catalogue-location] td', ID);
  expect(catalogueTable.whole).toEqual([true]);
  // A heading breaks between a name's parts only when the name is wider than its line (at 320 px the longest do).
  const headings = await namesLaidOut(page, '[data-catalogue-location] h2', LOCATION);
  expect(headings).toEqual({ whole: [true], needless: [] });

  await page.goto('/inspect');
  await page.locator('[data-inspected-slot="WelcomeCard"]').first().waitFor();
  await waitForSettledPage(page);
  const inspected = await namesLaidOut(page, 'main td', ID);
  expect(inspected.whole).toEqual([true]);
  const locations = await namesLaidOut(page, 'main td', LOCATION);
  expect(locations.whole.length).toBeGreaterThan(0);
  expect(locations.whole.every(Boolean)).toBe(true);
});
