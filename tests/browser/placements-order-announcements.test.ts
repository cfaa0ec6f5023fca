import { useBrowserSuite } from '../../testing/system/browser-suite';
import {
  addWelcomeCard,
  addWelcomeCardAndNotice,
  PLACEMENTS_LOCATION,
  recordTexts,
} from '../../testing/system/placements-page';
import { signIn } from '../../testing/system/sign-in';

/**
 * What the placements editor's location says of its cards, in its live region, as a screen reader's user hears it in
 * Chromium on a real server: where a card goes when its priority or its "goes right before / after" moves it, the
 * focus staying where the operator works, and nothing said again as news (an Add, once a refused save is mended).
 */
jest.setTimeout(120_000);

const suite = useBrowserSuite();

const LOCATION = PLACEMENTS_LOCATION;

it('does not say an Add again once a refused save is mended', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  const section = page.locator(`[data-placements-location="${LOCATION}"]`);
  const announced = section.locator('p.visually-hidden[role="status"]');
  await addWelcomeCard(page);
  await expect(announced.innerText()).resolves.toMatch(/^Added WelcomeCard \(team_marketing\)/);
  // A priority the draft cannot take: the save is refused, the focus back on the box.
  await page.keyboard.type('abc');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.locator('[data-placements-refused]').waitFor();
  await page.waitForFunction(() => document.activeElement?.id.endsWith('-priority') === true);
  expect(await announced.textContent()).toBe('');
  const said = await recordTexts(page, `[data-placements-location="${LOCATION}"] p.visually-hidden[role="status"]`);
  // Mended: the refusal goes, and the Add, said before it, is not said again as news.
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.locator('[data-placements-refused]').waitFor({ state: 'detached' });
  await page.waitForTimeout(300);
  expect(await said()).toEqual([]);
  expect(await announced.textContent()).toBe('');
  expect(log.pageErrors).toEqual([]);
});

it('says where a card goes when its priority, typed, moves it, the focus still in its box', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  const section = await addWelcomeCardAndNotice(page);
  // The focus on the priority of the card just added, the last (the same default priority, added after).
  const priority = section.getByLabel(/^Priority of MaintenanceNotice \(team_marketing\) #2/);
  await priority.evaluate(
    (box) =>
      new Promise((focused) => {
        const check = () => (box === document.activeElement ? focused(true) : requestAnimationFrame(check));
        check();
      }),
  );
  await page.keyboard.press('Control+A');
  await page.keyboard.type('10', { delay: 50 });
  const announced = section.locator('p.visually-hidden[role="status"]');
  await section
    .getByText('MaintenanceNotice (team_marketing) is now #1 of 2 at dashboard-after-cards, by its priority.')
    .waitFor({ state: 'attached' });
  // Now first, renamed with its place, and still where the operator types.
  await expect(
    page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? ''),
  ).resolves.toMatch(/^Priority of MaintenanceNotice \(team_marketing\) #1/);
  await expect(section.locator('li[data-placement-slot] h3').allInnerTexts()).resolves.toEqual([
    'MaintenanceNotice (team_marketing) #1',
    'WelcomeCard (team_marketing) #2',
  ]);
  // A priority that leaves it where it is says nothing new.
  const said = await recordTexts(page, `[data-placements-location="${LOCATION}"] p.visually-hidden[role="status"]`);
  await page.keyboard.press('Backspace');
  await page.waitForTimeout(300);
  expect(await said()).toEqual([]);
  await expect(announced.innerText()).resolves.toMatch(/is now #1 of 2/);
  expect(log.pageErrors).toEqual([]);
});

it('says where a slot goes once its "goes right before" or "after" is chosen, its card still where its priority lists it', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  const section = await addWelcomeCardAndNotice(page);
  const announced = section.locator('p.visually-hidden[role="status"]');
  await section.getByText(/^Added MaintenanceNotice \(team_marketing\)/).waitFor({ state: 'attached' });
  const field = (relation: string) =>
    section.getByLabel(`MaintenanceNotice (team_marketing) #2 at ${LOCATION} goes right ${relation}`, { exact: true });
  // Chosen from the keyboard, as a screen reader's user does: the focus stays in the box.
  const before = field('before');
  await before.focus();
  await before.selectOption('WelcomeCard');
  await section
    .getByText(
      'MaintenanceNotice (team_marketing) now goes right before "WelcomeCard" (WelcomeCard (team_marketing) #1) at ' +
        `${LOCATION}, whatever the priorities; its card stays #2 of 2, listed by priority.`,
    )
    .waitFor({ state: 'attached' });
  await expect(before.evaluate((box) => box === document.activeElement)).resolves.toBe(true);
  await expect(section.locator('li[data-placement-slot] h3').allInnerTexts()).resolves.toEqual([
    'WelcomeCard (team_marketing) #1',
    'MaintenanceNotice (team_marketing) #2',
  ]);
  // The same slot for "after" too: what stops it is said, not a place it does not get.
  await field('after').selectOption('WelcomeCard');
  await expect(announced.innerText()).resolves.toBe(
    'MaintenanceNotice (team_marketing) cannot go right after "WelcomeCard" (WelcomeCard (team_marketing) #1): ' +
      '"before" and "after" both name "WelcomeCard": keep one.',
  );
  await field('after').selectOption('ShortcutLinks');
  await before.selectOption('');
  await expect(announced.innerText()).resolves.toBe(
    'MaintenanceNotice (team_marketing) no longer goes right before a slot; it still goes right after ' +
      `"ShortcutLinks" (code's ShortcutLinks) at ${LOCATION}.`,
  );
  expect(log.pageErrors).toEqual([]);
});
