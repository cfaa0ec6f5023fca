import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { SLOT_TIMEOUT_MS } from '../../testing/system/slot-page';

/**
 * The placements editor's preview in Chromium, on a real server with the built remotes, as the demo operator: a
 * component added to the draft renders in the preview with the real remote's code, follows each edit of its props
 * before anything is saved or published, and a rule that hides it from viewers is named when previewing as a viewer.
 */
jest.setTimeout(180_000);

const suite = useBrowserSuite();

const LOCATION = 'dashboard-after-cards';
const NAME = 'WelcomeCard (team_marketing)';

it('renders the draft’s slots with the remotes’ components, follows a props edit before publish, names a hidden slot’s rule', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  await page.getByRole('heading', { name: 'Placements', level: 1 }).waitFor();
  const section = page.locator(`[data-placements-location="${LOCATION}"]`);
  const preview = page.getByRole('region', { name: 'Preview' });
  const stage = preview.locator(`[data-placements-preview-stage="${LOCATION}"]`);
  const welcome = stage.locator('[data-slot-component="WelcomeCard"]');

  await section.getByLabel(`Add a slot at ${LOCATION}`).selectOption('team_marketing:WelcomeCard');
  await section.getByRole('button', { name: 'Add', exact: true }).click();
  await section.getByText(`Props of ${NAME}`).click();
  await section.getByRole('textbox', { name: /title/i }).fill('Placed by an operator');
  await preview.getByLabel('Location previewed').selectOption(LOCATION);

  // The remote's own component, with the draft's props, after the code's slot (its default priority is the same).
  await welcome.getByRole('heading', { name: 'Placed by an operator' }).waitFor({ timeout: SLOT_TIMEOUT_MS });
  await stage.locator('[data-slot-component="ShortcutLinks"]').waitFor({ timeout: SLOT_TIMEOUT_MS });
  await expect(
    stage.locator('[data-slot-component]').evaluateAll((slots) => slots.map((slot) => slot.dataset.slotComponent)),
  ).resolves.toEqual(['ShortcutLinks', 'WelcomeCard']);

  // A picture of the location, not a page to use: the Tab from the preview's last control passes its links by, and a
  // click on one goes nowhere (neither away nor to the question of leaving the draft unsaved).
  await preview.getByRole('checkbox', { name: /^Choose the feature flags/ }).focus();
  await page.keyboard.press('Tab');
  await expect(
    page.evaluate(() => document.activeElement?.closest('[data-placements-preview-stage]') == null),
  ).resolves.toBe(true);
  await stage.scrollIntoViewIfNeeded();
  const tile = (await stage.locator('[data-slot-component="ShortcutLinks"] a').first().boundingBox())!;
  await page.mouse.click(tile.x + tile.width / 2, tile.y + tile.height / 2);
  await page.waitForTimeout(500);
  expect(new URL(page.url()).pathname).toBe('/placements');
  expect(await page.getByRole('dialog').count()).toBe(0);

  // An edit of its props shows at once, unsaved and unpublished.
  await section.getByRole('textbox', { name: /title/i }).fill('Edited before publishing');
  await welcome.getByRole('heading', { name: 'Edited before publishing' }).waitFor({ timeout: SLOT_TIMEOUT_MS });
  await expect(page.locator('[data-placements-status]').innerText()).resolves.toMatch(/Unsaved changes/);
  const revisions = await page.request.get('/api/placements/revisions');
  expect(await revisions.json()).toEqual({ revisions: [], inForce: 0 });

  // Shown to operators only: previewed as a viewer, the slot is gone from the stage and named with its rule.
  // Built in the rule builder: one condition, a role, operator chosen.
  const rule = section.getByRole('group', { name: `Shown when rule of ${NAME}` });
  await rule.getByRole('button', { name: 'Add a condition in the Shown when rule of' }).click();
  await rule.getByRole('checkbox', { name: /^operator as one of the roles of condition 1 / }).check();
  // Read back in words under its box.
  await section.getByText('Shown to: role operator.').waitFor();
  await preview.getByLabel('As role').selectOption('viewer');
  const hidden = preview.locator('[data-preview-slot="WelcomeCard"][data-preview-outcome="hidden"]');
  await hidden.waitFor();
  await expect(hidden.innerText()).resolves.toBe(
    'WelcomeCard (draft, team_marketing): hidden by its rule: role operator',
  );
  expect(await welcome.count()).toBe(0);
  await expect(preview.locator('[data-placements-preview-status]').innerText()).resolves.toMatch(
    /^As roles viewer in tenant acme/,
  );
  expect(await axeViolations(page)).toEqual([]);

  // Back as an operator: shown again, with the props as edited.
  await preview.getByLabel('As role').selectOption('operator');
  await welcome.getByRole('heading', { name: 'Edited before publishing' }).waitFor({ timeout: SLOT_TIMEOUT_MS });
  await expect(preview.locator('[data-preview-slot="WelcomeCard"]').getAttribute('data-preview-outcome')).resolves.toBe(
    'shown',
  );
  expect(log.consoleMatching(/Content Security Policy|Refused to|EvalError/, ['error', 'warning'])).toEqual([]);
  // The tenants and flags offered, read once for the rule builders and the preview alike (the preview read them again).
  expect(log.requestsTo('GET', '/api/placements/preview')).toHaveLength(1);
});

it('offers no Retry it cannot press: a failed slot’s placeholder in the inert stage is shown without one', async () => {
  const { page } = await suite.newPage();
  await signIn(page);
  // The server's preview with a slot of a component no remote registers (a remote taken away since, say): the page
  // fails it in its boundary, whose placeholder is drawn in the stage.
  await page.route('**/api/placements/preview', async (route) => {
    // Its GET is the choices of accounts: as it is.
    if (route.request().method() !== 'POST') return route.fallback();
    const response = await route.fetch();
    const payload = (await response.json()) as {
      locations: Record<string, { slots: Array<{ component: string; props: object }> }>;
    };
    payload.locations?.[LOCATION]?.slots.push({ component: 'Vanished', props: {} });
    await route.fulfill({ response, json: payload });
  });
  await page.goto(`/placements?location=${LOCATION}`);
  const preview = page.getByRole('region', { name: 'Preview' });
  await preview.getByLabel('Location previewed').selectOption(LOCATION);
  const stage = preview.locator(`[data-placements-preview-stage="${LOCATION}"]`);
  const failure = stage.locator('[data-slot-component="Vanished"] .slot-failure');
  await failure
    .getByText('Slot “Vanished” did not render at dashboard-after-cards')
    .waitFor({ timeout: SLOT_TIMEOUT_MS });
  // The stage is inert (a picture of the location): a Retry there was drawn, and neither a click nor a key reached it.
  expect(await stage.locator('[inert]').count()).toBe(1);
  const shownButtons = await stage
    .locator('.slot-failure button')
    .evaluateAll((buttons) => buttons.filter((button) => button.getClientRects().length > 0).map((b) => b.textContent));
  expect(shownButtons).toEqual([]);
  await expect(failure.innerText()).resolves.toMatch(/Shown in the placements preview only/);
});
