import type { Page } from 'playwright-core';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { runCommand } from '../../testing/system/npm-command';
import { signIn } from '../../testing/system/sign-in';
import { componentsAt, SLOT_TIMEOUT_MS, waitForSlot } from '../../testing/system/slot-page';

/**
 * The placements editor in Chromium, on a real server, as the demo operator: a component placed from the page
 * with its props filled in the form its schema makes, published, moved by its priority and published again, then
 * rolled back; the dashboard shows each order on the next load. A form slot placed from the page and published
 * shows in the resource's form. The page passes axe-core (WCAG 2.2 AA), its
 * schema forms run under the page's Content-Security-Policy, and other staff are told it is for operators.
 */
jest.setTimeout(180_000);

const suite = useBrowserSuite();

const LOCATION = 'dashboard-after-cards';

/** Publish from the toolbar, confirmed in the app's dialog, and wait for the revision to be announced. */
async function publishAndWait(page: Page, announcement: RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('dialog', { name: 'Publish the draft?' }).getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('status').filter({ hasText: announcement }).waitFor();
}

/** Whether the element the selector finds has the focus, waited for. */
async function waitForFocus(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((found) => document.activeElement === document.querySelector(found), selector);
}

async function dashboardOrder(page: Page): Promise<string[]> {
  await page.goto('/');
  await waitForSlot(page, LOCATION, 'ShortcutLinks');
  await waitForSlot(page, LOCATION, 'WelcomeCard', { hasText: 'Placed by an operator' });
  return componentsAt(page, LOCATION);
}

it('places a component with its props form, reorders it by priority, publishes and rolls back', async () => {
  const { page, log } = await suite.newPage();
  {
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Placements' }).click();
    await page.getByRole('heading', { name: 'Placements', level: 1 }).waitFor();
    // One location at a time, picked from the map; the address keeps it.
    await page.getByRole('navigation', { name: 'Locations' }).getByRole('link', { name: LOCATION }).click();
    await page.waitForURL(`**/placements?location=${LOCATION}`);
    const section = page.locator(`[data-placements-location="${LOCATION}"]`);
    await waitForFocus(page, `[id="placements-${LOCATION}"]`);
    expect(await page.locator('[data-placements-location]:not([hidden])').count()).toBe(1);

    await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:WelcomeCard');
    await section.getByRole('button', { name: 'Add', exact: true }).click();
    const name = 'WelcomeCard (team_marketing)';
    // Without its required title, the saved draft names the problem at the slot, before any publish.
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft saved with 1 problem.' }).waitFor();
    // In words, by the prop's label, at its field; the card's list links to it rather than saying it again, named
    // as a staff member reads the field: its label in the form, of which slot, where (the location heard only).
    const problems = section.locator('[data-placement-problems]');
    await expect(problems.textContent()).resolves.toBe(
      `Title of ${name} #1 at ${LOCATION}: its problem is said at its field`,
    );
    expect(await section.getByText('Title is required', { exact: true }).count()).toBe(1);
    // Followed, the link takes the focus to the field: the props form opened with the problem of its title, named
    // after its card too (to screen readers only).
    const titleBox = section.getByRole('textbox', { name: /^Title \(required\) — WelcomeCard \(team_marketing\)/ });
    await problems.getByRole('link', { name: `Title of ${name} #1 at ${LOCATION}`, exact: true }).click();
    await expect(titleBox.evaluate((box) => box === document.activeElement)).resolves.toBe(true);

    // The preview: where the saved draft's slot lands among the code's.
    await expect(section.locator(`[data-placements-preview="${LOCATION}"] li`).allInnerTexts()).resolves.toEqual([
      'ShortcutLinks (code)',
      'WelcomeCard (draft, team_marketing)',
    ]);

    await titleBox.fill('Placed by an operator');
    await section.getByLabel(`Priority of ${name}`).fill('10');
    await publishAndWait(page, /Revision 1 published/);
    expect(await section.locator('[data-placement-problems]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(await dashboardOrder(page)).toEqual(['WelcomeCard', 'ShortcutLinks']);

    await page.goto(`/placements?location=${LOCATION}`);
    await section.getByLabel(`Priority of ${name}`).fill('90');
    await publishAndWait(page, /Revision 2 published/);
    await expect(page.locator('[data-placements-diff]').innerText()).resolves.toMatch(/is what is published/);
    expect(await dashboardOrder(page)).toEqual(['ShortcutLinks', 'WelcomeCard']);

    await page.goto(`/placements?location=${LOCATION}`);
    // Asked in the app's dialog too; once done, the status saying what is in force has the focus.
    await page.getByRole('button', { name: 'Roll back to revision 1' }).click();
    const rollback = page.getByRole('dialog', { name: 'Roll back to revision 1?' });
    await rollback.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await rollback.getByRole('button', { name: 'Roll back' }).click();
    await page.getByRole('status').filter({ hasText: 'revision 3 is in force' }).waitFor();
    await waitForFocus(page, '[data-placements-status]');
    await expect(section.getByLabel(`Priority of ${name}`).inputValue()).resolves.toBe('10');
    expect(await axeViolations(page)).toEqual([]);
    expect(await dashboardOrder(page)).toEqual(['WelcomeCard', 'ShortcutLinks']);
    expect(log.consoleMatching(/Content Security Policy|Refused to|EvalError/, ['error', 'warning'])).toEqual([]);
  }
});

it("fits a phone's width, and moves the focus to a slot just added, saying it was added", async () => {
  const { page, log } = await suite.newPage({ viewport: { width: 390, height: 844 } });
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  const section = page.locator(`[data-placements-location="${LOCATION}"]`);
  const chooser = section.getByLabel(`Add a slot at ${LOCATION}`);
  await chooser.selectOption('team_marketing:WelcomeCard');
  await section.getByRole('button', { name: 'Add', exact: true }).click();
  const added = section.locator('[data-placement-slot="team_marketing:WelcomeCard"]');
  await added.waitFor();
  // The focus goes on with the new entry (its first control), and the live region says what was added.
  await page.waitForFunction(
    (selector) => document.querySelector(selector)?.contains(document.activeElement) === true,
    `[data-placements-location="${LOCATION}"] [data-placement-slot="team_marketing:WelcomeCard"]`,
  );
  await section.getByText(/^Added WelcomeCard \(team_marketing\)/).waitFor({ state: 'attached' });
  // No card wider than the screen: the page does not scroll sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Nor at 320 px (WCAG 1.4.10), its order fields' long labels and choices included.
  await page.setViewportSize({ width: 320, height: 640 });
  await expect(added.getByLabel(/goes right before/).isVisible()).resolves.toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  expect(log.pageErrors).toEqual([]);
});

it('places a form slot with its props form and publishes it: the resource form shows the component', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto('/placements?location=forms');
  const forms = page.locator('[data-placements-forms]');
  await forms.getByLabel('Form of the resource').selectOption('authors');
  await forms.getByLabel('Form component').selectOption('team_records:SlugPreview');
  await forms.getByLabel('Position in the form').selectOption('after:title');
  await forms.getByRole('button', { name: 'Add the form slot' }).click();
  const name = 'SlugPreview (team_records) in the Authors form';
  await forms.getByText(`Props of ${name}`).click();
  await forms.getByRole('textbox', { name: /source/i }).fill('title');
  await forms.getByRole('textbox', { name: /target/i }).fill('label');
  await publishAndWait(page, /Revision \d+ published/);
  expect(await forms.locator('[data-placement-problems]').count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);

  const form = 'form[data-resource-form="authors"]';
  await page.goto('/resources/authors/new');
  await page.locator(`${form} [data-form-slot="SlugPreview"]`).getByText('Slug preview').waitFor({
    timeout: SLOT_TIMEOUT_MS,
  });
  expect(log.pageErrors).toEqual([]);
});

describe.each([1280, 390])('by keyboard at %i px', (width) => {
  it('removes one slot per Enter, the focus on the location after it, and publishes only once confirmed', async () => {
    const { page, log } = await suite.newPage({ viewport: { width, height: 844 } });
    await signIn(page);
    await page.goto(`/placements?location=${LOCATION}`);
    const section = page.locator(`[data-placements-location="${LOCATION}"]`);
    const cards = section.locator('li[data-placement-slot]');
    const countIs = (count: number) =>
      page.waitForFunction(
        ([location, expected]) =>
          document.querySelectorAll(`[data-placements-location="${location}"] li[data-placement-slot]`).length ===
          expected,
        [LOCATION, count] as const,
      );
    // Two slots added at the default priority: the last two cards.
    const before = await cards.count();
    for (const count of [before + 1, before + 2]) {
      await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:WelcomeCard');
      await section.getByRole('button', { name: 'Add', exact: true }).click();
      await countIs(count);
    }
    const first = `WelcomeCard (team_marketing) #${before + 1}`;
    await section.getByRole('button', { name: `Remove ${first} at ${LOCATION}` }).focus();
    await page.keyboard.press('Enter');
    await countIs(before + 1);
    // On the location's heading, not on the Remove button of the slot that took the removed one's place.
    await waitForFocus(page, `[id="placements-${LOCATION}"]`);
    await section.getByText(`Removed ${first} from ${LOCATION}: ${before + 1} slot`).waitFor({ state: 'attached' });
    await page.keyboard.press('Enter');
    expect(await cards.count()).toBe(before + 1);
    // The slot left gets its required title, so the draft can be published.
    const left = cards.nth(before);
    await left.getByText(`Props of ${first}`).click();
    await left.getByRole('textbox', { name: /title/i }).fill('Kept by keyboard');

    // Publish asks first, on Cancel; Escape leaves it and the focus back on Publish, nothing published.
    const publish = page.getByRole('button', { name: 'Publish' });
    const revisions = async () =>
      ((await (await page.request.get('/api/placements/revisions')).json()) as { revisions: unknown[] }).revisions
        .length;
    const published = await revisions();
    await publish.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Publish the draft?' });
    await dialog.waitFor();
    await expect(dialog.locator('[data-placements-publish-question]').innerText()).resolves.toMatch(
      /unsaved changes are saved first/i,
    );
    await page.waitForFunction(() => document.activeElement?.textContent === 'Cancel');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.matches('.placements__actions .button--primary') === true);
    expect(await revisions()).toBe(published);

    // Confirmed: published, announced beside Publish, which keeps the focus.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: /Revision \d+ published/ })
      .waitFor();
    await page.waitForFunction(() => document.activeElement?.matches('.placements__actions .button--primary') === true);
    expect(await revisions()).toBe(published + 1);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(log.pageErrors).toEqual([]);
  });
});

describe.each([
  [1280, 800],
  [390, 844],
])('the Shown when rule builder at %i px', (width, height) => {
  it('builds a rule by keyboard that the server applies once published, the same rule in the JSON view', async () => {
    const { page, log } = await suite.newPage({ viewport: { width, height } });
    await signIn(page);
    await page.goto(`/placements?location=${LOCATION}`);
    const section = page.locator(`[data-placements-location="${LOCATION}"]`);
    const title = `Built with the rule builder at ${width}`;
    await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:WelcomeCard');
    await section.getByRole('button', { name: 'Add', exact: true }).click();
    // The card just added (the focus is on it), found again by its title once given.
    await page.waitForFunction(() => document.activeElement?.closest('li[data-placement-slot]') !== null);
    const added = section.locator('li[data-placement-slot]').last();
    await added.getByText(/^Props of WelcomeCard/).click();
    await added.getByRole('textbox', { name: /title/i }).fill(title);
    const card = section.locator('li[data-placement-slot]', { hasText: title });
    const rule = card.getByRole('group', { name: /^Shown when rule of/ });
    /** Waits until the operator's own /meta (the server's answer) places the card at the location, or not. */
    const servedToOperatorBecomes = async (expected: boolean) => {
      const deadline = Date.now() + SLOT_TIMEOUT_MS;
      for (;;) {
        const meta = (await (await page.request.get('/meta')).json()) as { slots: Record<string, unknown> };
        if (JSON.stringify(meta.slots[LOCATION] ?? []).includes(title) === expected) return;
        if (Date.now() > deadline) throw new Error(`/meta still ${expected ? 'leaves out' : 'sends'} "${title}"`);
        await page.waitForTimeout(250);
      }
    };

    // By keyboard: Add a condition, the focus on what it is about (a role); its test "is none of"; operator ticked.
    await rule.getByRole('button', { name: /^Add a condition in the Shown when rule of/ }).focus();
    await page.keyboard.press('Enter');
    const about = rule.getByLabel(/^Condition 1 is about/);
    await page.waitForFunction(() => document.activeElement?.id.endsWith('-rule-1-key') === true);
    await expect(about.inputValue()).resolves.toBe('roles');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.activeElement?.id.endsWith('-rule-1-not') === true);
    await rule.getByLabel(/^Test of condition 1/).selectOption('not');
    const operator = rule.getByRole('checkbox', {
      name: /^operator as one of the roles of condition 1 in the Shown when rule of/,
    });
    for (const role of ['viewer', 'editor', 'operator']) {
      await page.keyboard.press('Tab');
      // Its label: the name, then (visually hidden) of what.
      await page.waitForFunction(
        (name) =>
          document.activeElement?.parentElement?.textContent?.startsWith(`${name} as one of the roles`) === true,
        role,
      );
    }
    await page.keyboard.press('Space');
    await expect(operator.isChecked()).resolves.toBe(true);
    await rule.getByText('Shown to: not role operator.').waitFor();
    // Its boxes are targets of 24 x 24 px at least (WCAG 2.2).
    const box = await operator.boundingBox();
    expect([box!.width >= 24, box!.height >= 24]).toEqual([true, true]);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // The JSON view shows the same rule, and the builder comes back with it.
    const toggle = rule.getByRole('button', { name: /^Edit as JSON/ });
    await toggle.click();
    await expect(rule.getByLabel(/^JSON of the Shown when rule of/).inputValue()).resolves.toBe(
      '{"$not":{"roles":["operator"]}}',
    );
    await toggle.click();
    await expect(operator.isChecked()).resolves.toBe(true);

    // "is one of" operator: published, the server places it for the operator (within seconds: every host takes the
    // revision from the database), and the dashboard shows it.
    await rule.getByLabel(/^Test of condition 1/).selectOption('holds');
    await rule.getByText('Shown to: role operator.').waitFor();
    await publishAndWait(page, /Revision \d+ published/);
    await servedToOperatorBecomes(true);
    await page.goto('/');
    await waitForSlot(page, LOCATION, 'WelcomeCard', { hasText: title });

    // "is none of" operator again, as built by keyboard: published, the server no longer sends it to the operator.
    await page.goto(`/placements?location=${LOCATION}`);
    await rule.getByLabel(/^Test of condition 1/).selectOption('not');
    await rule.getByText('Shown to: not role operator.').waitFor();
    await publishAndWait(page, /Revision \d+ published/);
    await servedToOperatorBecomes(false);
    expect(log.pageErrors).toEqual([]);
  });
});

it('shows other staff neither the link nor the editor, and the API refuses them', async () => {
  const password = 'a clerk password of some length';
  await runCommand(suite.server, ['user:add', '--', 'clerk', '--tenant', 'acme'], `${password}\n`);
  const { page } = await suite.newPage();
  await signIn(page, { username: 'clerk', password });
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  expect(await page.getByRole('link', { name: 'Placements' }).count()).toBe(0);
  await page.goto(`/placements?location=${LOCATION}`);
  await page.getByRole('heading', { name: 'Operators only', level: 1 }).waitFor();
  await expect(page.getByText('Placements are for staff with the operator role.').count()).resolves.toBe(1);
  expect((await page.request.get('/api/placements')).status()).toBe(403);
});

it('stacks the import form’s labels above their controls at 1280 px', async () => {
  const { page, log } = await suite.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page);
  await page.goto('/placements');
  const section = page.locator('[data-placements-import]');
  for (const [label, control] of [
    ['JSON file to import', '#placements-import-file'],
    ['JSON to import (chosen file or pasted)', '#placements-import-text'],
  ] as const) {
    const labelBox = await section.getByText(label, { exact: true }).boundingBox();
    const controlBox = await section.locator(control).boundingBox();
    // Above it and starting where it starts, not inline beside it.
    expect(labelBox!.y + labelBox!.height).toBeLessThanOrEqual(controlBox!.y + 1);
    expect(Math.abs(labelBox!.x - controlBox!.x)).toBeLessThanOrEqual(1);
  }
  expect(log.pageErrors).toEqual([]);
});
