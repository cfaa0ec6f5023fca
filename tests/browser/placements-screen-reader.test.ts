import type { Locator, Page } from 'playwright-core';
import { descriptionOf } from '../../testing/system/accessibility-tree';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { SLOT_TIMEOUT_MS } from '../../testing/system/slot-page';

/**
 * The placements editor as a staff member who works by keyboard with a screen reader hears it, in Chromium on a real
 * server: what its live regions say (each change once, nothing stale said again) and what its controls are named and
 * described as in Chromium's accessibility tree.
 */
jest.setTimeout(120_000);

const suite = useBrowserSuite();

const LOCATION = 'dashboard-after-cards';

/** Starts recording each text the element takes from now on (what a screen reader reads out of a live region). */
async function recordTexts(page: Page, selector: string): Promise<() => Promise<string[]>> {
  const key = await page.evaluate((found) => {
    const element = document.querySelector(found)!;
    const texts: string[] = [];
    const id = `said-${Math.random()}`;
    (window as unknown as Record<string, string[]>)[id] = texts;
    let last = element.textContent ?? '';
    new MutationObserver(() => {
      const text = element.textContent ?? '';
      if (text !== last) texts.push(text);
      last = text;
    }).observe(element, { subtree: true, childList: true, characterData: true });
    return id;
  }, selector);
  return () => page.evaluate((id) => [...(window as unknown as Record<string, string[]>)[id]!], key);
}

async function addWelcomeCard(page: Page): Promise<Locator> {
  const section = page.locator(`[data-placements-location="${LOCATION}"]`);
  await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:WelcomeCard');
  await section.getByRole('button', { name: 'Add', exact: true }).click();
  // The focus goes on with the card added (its priority).
  await page.waitForFunction(() => document.activeElement?.closest('li[data-placement-slot]') != null);
  return section.locator('li[data-placement-slot="team_marketing:WelcomeCard"]');
}

/** The location's section after a WelcomeCard and then a MaintenanceNotice were added (the notice is #2). */
async function addWelcomeCardAndNotice(page: Page): Promise<Locator> {
  const section = page.locator(`[data-placements-location="${LOCATION}"]`);
  await addWelcomeCard(page);
  await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:MaintenanceNotice');
  await section.getByRole('button', { name: 'Add', exact: true }).click();
  return section;
}

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
