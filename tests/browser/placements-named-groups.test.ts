import type { Page } from 'playwright-core';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';

/**
 * The placements editor read by a screen reader, in Chromium's accessibility tree: every group it enters is named
 * (a nameless one is announced as "group" and nothing else).
 */
jest.setTimeout(120_000);

const suite = useBrowserSuite();

const LOCATION = 'dashboard-after-cards';

/** The groups Chromium exposes with no name, each as its first words (what a screen reader would say in it). */
async function namelessGroups(page: Page): Promise<string[]> {
  const tree = await page.locator('main').ariaSnapshot();
  const lines = tree.split('\n');
  return lines.flatMap((line, at) =>
    /^\s*- group:?$/.test(line) ? [`group then ${(lines[at + 1] ?? '').trim().slice(0, 80)}`] : [],
  );
}

it('puts the map, the locations, the import and the revisions in no nameless group', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  await page.getByRole('navigation', { name: 'Locations' }).waitFor();
  await page.getByRole('region', { name: 'Revisions', exact: true }).waitFor();
  await expect(namelessGroups(page)).resolves.toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  expect(log.pageErrors).toEqual([]);
});
