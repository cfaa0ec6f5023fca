import { useBrowserSuite } from '../../testing/system/browser-suite';
import { addWelcomeCard, PLACEMENTS_LOCATION, recordTexts } from '../../testing/system/placements-page';
import { signIn } from '../../testing/system/sign-in';
import { SLOT_TIMEOUT_MS } from '../../testing/system/slot-page';

/**
 * The placements editor's preview as a staff member who works by keyboard with a screen reader hears it, in Chromium
 * on a real server: what its live status says as a card's props and rule are edited (each change once, nothing
 * stale said again). A card's order said as it changes: placements-order-announcements.test.ts; the rule's own words
 * as it is typed: placements-rule-builder.test.ts; where the focus goes: placements-navigation.test.ts.
 */
jest.setTimeout(120_000);

const suite = useBrowserSuite();

const LOCATION = PLACEMENTS_LOCATION;

it('says the preview’s account and what it sees once per change, not "Previewing…" at each pause in typing', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  const card = await addWelcomeCard(page);
  await card.getByText(/^Props of WelcomeCard/).click();
  const title = card.getByRole('textbox', { name: /^Title/ });
  await title.fill('Typed');
  const status = page.locator('[data-placements-preview-status]');
  // What the inert stage shows, in words: the account, and how many of the location's slots it sees.
  const allShown =
    /^As roles operator, editor in tenant acme, no flag on: 2 of 2 slots placed at dashboard-after-cards shown\.$/;
  await page.waitForFunction(
    (pattern) =>
      new RegExp(pattern).test(document.querySelector('[data-placements-preview-status]')?.textContent ?? ''),
    allShown.source,
    { timeout: SLOT_TIMEOUT_MS },
  );
  const said = await recordTexts(page, '[data-placements-preview-status]');
  // Typed with pauses longer than the preview's wait (300 ms): each pause asks the server again.
  await title.focus();
  for (const word of [' by', ' keyboard']) {
    await page.keyboard.type(word, { delay: 30 });
    await page.waitForResponse((response) => response.url().endsWith('/api/placements/preview'));
    await page.waitForTimeout(400);
  }
  expect(await said()).toEqual([]);
  await expect(status.innerText()).resolves.toMatch(allShown);

  // An edit that hides the slot from this account is said, once.
  // Written as JSON in one go: built box by box, the rule would pass through an empty condition, previewed too.
  const rule = card.getByRole('group', { name: /^Shown when rule of/ });
  await rule.getByRole('button', { name: /^Edit as JSON/ }).click();
  await rule.getByLabel(/^JSON of the Shown when rule of/).fill('{"roles":["viewer"]}');
  await page.waitForFunction(
    () => /1 of 2 slots/.test(document.querySelector('[data-placements-preview-status]')?.textContent ?? ''),
    undefined,
    { timeout: SLOT_TIMEOUT_MS },
  );
  await page.waitForTimeout(800);
  expect(await said()).toEqual([
    'As roles operator, editor in tenant acme, no flag on: 1 of 2 slots placed at dashboard-after-cards shown.',
  ]);
  // The list below it is named for what it is.
  await page.getByRole('list', { name: `Slots placed at ${LOCATION}, and whether this account sees each` }).waitFor();
  expect(log.pageErrors).toEqual([]);
});

it('says a slot whose rule is being built is previewed once the rule is complete, and what to tick, not that it is left out', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  const card = await addWelcomeCard(page);
  await card.getByText(/^Props of WelcomeCard/).click();
  await card.getByRole('textbox', { name: /^Title/ }).fill('Hello');
  const status = page.locator('[data-placements-preview-status]');
  const previewed = (pattern: RegExp) =>
    page.waitForFunction(
      (source) =>
        new RegExp(source).test(document.querySelector('[data-placements-preview-status]')?.textContent ?? ''),
      pattern.source,
      { timeout: SLOT_TIMEOUT_MS },
    );
  await previewed(/2 of 2 slots placed at dashboard-after-cards shown\.$/);
  const said = await recordTexts(page, '[data-placements-preview-status]');
  const rule = card.getByRole('group', { name: /^Shown when rule of/ });
  await rule.getByRole('button', { name: /^Add a condition/ }).click();
  const waiting =
    'As roles operator, editor in tenant acme, no flag on: 1 of 1 slot placed at dashboard-after-cards shown. ' +
    'WelcomeCard (team_marketing) #1 is previewed once its Shown when rule is complete: condition 1 names no role ' +
    'yet (tick one).';
  await previewed(/is previewed once/);
  await expect(status.innerText()).resolves.toBe(waiting);
  // Said once, in the live region: not again, in the server's words, as a part left out of the preview.
  await expect(page.locator('section.placements__live-preview').innerText()).resolves.not.toMatch(
    /Not in the preview|non-empty list/,
  );
  await rule.getByRole('checkbox', { name: /^editor as one of the roles of condition 1/ }).check();
  await previewed(/2 of 2 slots placed at dashboard-after-cards shown\.$/);
  await page.waitForTimeout(500);
  expect(await said()).toEqual([
    waiting,
    'As roles operator, editor in tenant acme, no flag on: 2 of 2 slots placed at dashboard-after-cards shown.',
  ]);
  expect(log.pageErrors).toEqual([]);
});
