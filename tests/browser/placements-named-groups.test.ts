import type { Page } from 'playwright-core';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';

/**
 * The placements editor read by a screen reader, in Chromium's accessibility tree: every group it enters is named
 * (a nameless one is announced as "group" and nothing else), and a choice among a prop's values not made yet is read
 * as such, not as "blank".
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

it('names a slot’s props box by its summary, puts its props in no nameless group, and reads an unchosen value as one to choose', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  const section = page.locator(`[data-placements-location="${LOCATION}"]`);
  await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:MaintenanceNotice');
  await section.getByRole('button', { name: 'Add', exact: true }).click();
  // Opened from the keyboard, as its summary is reached with Tab.
  await section.getByText(/^Props of MaintenanceNotice/).focus();
  await page.keyboard.press('Enter');
  const severity = section.getByRole('combobox', { name: /^Severity \(required\)/ });
  await severity.waitFor();
  const props = section.locator('details.placements__props');
  // The details box itself is a group, named by its summary, as Chromium's accessibility tree gives it; none inside it
  // without a name.
  await expect(props.ariaSnapshot()).resolves.not.toMatch(/\n\s*- group:?\n/);
  const node = await page.accessibility.snapshot({ root: (await props.elementHandle())!, interestingOnly: false });
  expect({ role: node?.role, name: node?.name }).toEqual({
    role: 'group',
    name: `Props of MaintenanceNotice (team_marketing) #1 at ${LOCATION}`,
  });
  await expect(namelessGroups(page)).resolves.toEqual([]);
  // The choice not made yet is named, and is what the box reads as.
  await expect(severity.locator('option').allTextContents()).resolves.toEqual(['Choose…', 'info', 'warning']);
  await expect(severity.evaluate((box: HTMLSelectElement) => box.selectedOptions[0]?.text)).resolves.toBe('Choose…');
  // Chosen with the arrow keys, as a keyboard user does: the first value, not the placeholder, and the error goes.
  await severity.focus();
  await page.keyboard.press('ArrowDown');
  await expect(severity.evaluate((box: HTMLSelectElement) => box.selectedOptions[0]?.text)).resolves.toBe('info');
  await expect(severity.getAttribute('aria-invalid')).resolves.toBeNull();
  expect(await axeViolations(page)).toEqual([]);
  expect(log.pageErrors).toEqual([]);
});
