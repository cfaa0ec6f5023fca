import type { Page } from 'playwright-core';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { runCommand } from '../../testing/system/npm-command';
import { signIn } from '../../testing/system/sign-in';
import { PLACEMENTS_LOCATION, publishAndWait, waitForFocus } from '../../testing/system/placements-page';
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

const LOCATION = PLACEMENTS_LOCATION;
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
