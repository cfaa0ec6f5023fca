import { descriptionOf } from '../../testing/system/accessibility-tree';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { addWelcomeCard, PLACEMENTS_LOCATION } from '../../testing/system/placements-page';
import { signIn } from '../../testing/system/sign-in';

/**
 * Finding one's way in the placements editor by keyboard with a screen reader, in Chromium on a real server: the
 * locations' map links described by their slots and problems (Chromium's accessibility tree), and the focus taken to
 * the preview from a location's link to it, while its chunk still loads too.
 */
jest.setTimeout(120_000);

const suite = useBrowserSuite();

const LOCATION = PLACEMENTS_LOCATION;

it('describes each location’s link in the map by its slots and problems, as a Tab through the map reads it', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  const map = page.getByRole('navigation', { name: 'Locations' });
  const link = map.getByRole('link', { name: LOCATION, exact: true });
  await expect(descriptionOf(link)).resolves.toBe('(1 of code or the file)');
  await addWelcomeCard(page);
  // Saved without its required title: a problem there, said with the link.
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('status').filter({ hasText: 'Draft saved with 1 problem.' }).waitFor();
  await expect(descriptionOf(link)).resolves.toBe('(1 in the draft, 1 of code or the file, 1 problem)');
  await expect(descriptionOf(map.getByRole('link', { name: 'header-banner', exact: true }))).resolves.toMatch(
    /^\(.+\)$/,
  );
  expect(log.pageErrors).toEqual([]);
});

it('takes the focus to the preview from a location’s link to it, unsaved changes and all, the address unchanged', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  await addWelcomeCard(page);
  const address = page.url();
  await page.getByRole('link', { name: `See ${LOCATION} as a chosen account would` }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'placements-preview-heading');
  await page.waitForTimeout(300);
  // No hash: the address still names the location shown, and the router's leave guard was not passed through.
  expect(page.url()).toBe(address);
  expect(log.consoleMatching(/blocker/i, ['error', 'warning'])).toEqual([]);
  await expect(page.locator('[data-placements-status]').innerText()).resolves.toMatch(/Unsaved changes/);
  expect(log.pageErrors).toEqual([]);
});

it('takes the focus to the preview from its link pressed while the preview’s chunk still loads, unless it moved on', async () => {
  const { page, log } = await suite.newPage();
  // The preview's chunk held back, as a slow network does, until the test lets each one through.
  const held: Array<() => void> = [];
  await page.route(/tool-page-placements-preview[^/]*\.js$/, async (route) => {
    await new Promise<void>((release) => held.push(release));
    await route.continue();
  });
  await signIn(page);
  const activeHeading = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      return active?.id === 'placements-preview-heading'
        ? `${active.textContent}: ${active.closest('section')?.innerText.includes('Location previewed') ? 'loaded' : 'loading'}`
        : null;
    });

  await page.goto(`/placements?location=${LOCATION}`);
  const link = page.getByRole('link', { name: `See ${LOCATION} as a chosen account would` });
  await link.focus();
  await page.keyboard.press('Enter');
  // The press lands on the loading preview's heading, not nowhere; its place says it loads.
  await expect(activeHeading()).resolves.toBe('Preview: loading');
  await expect(page.getByRole('status').filter({ hasText: 'Loading the preview…' }).count()).resolves.toBe(1);
  while (held.length === 0) await page.waitForTimeout(50);
  held.splice(0).forEach((release) => release());
  await page.locator('#placements-preview-location').waitFor();
  // The loaded preview's heading has it: the focus was not dropped on the page's body as the loading one left.
  await expect(activeHeading()).resolves.toBe('Preview: loaded');

  // Again, but the focus moves on before the chunk arrives: the preview does not take it back.
  await page.reload();
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(activeHeading()).resolves.toBe('Preview: loading');
  await link.focus();
  while (held.length === 0) await page.waitForTimeout(50);
  held.splice(0).forEach((release) => release());
  await page.locator('#placements-preview-location').waitFor();
  await expect(link.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
  expect(log.pageErrors).toEqual([]);
});
