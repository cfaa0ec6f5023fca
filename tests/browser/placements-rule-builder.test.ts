import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { addWelcomeCard, PLACEMENTS_LOCATION, publishAndWait, recordTexts } from '../../testing/system/placements-page';
import { signIn } from '../../testing/system/sign-in';
import { SLOT_TIMEOUT_MS, waitForSlot } from '../../testing/system/slot-page';

/**
 * A card's "Shown when" rule builder in Chromium on a real server, on a desktop and a phone: a rule built by keyboard
 * is the same rule in the JSON view, and once published the server applies it (the operator's /meta and dashboard);
 * the rule's words, a live region, said once JSON typed key by key pauses, and at once as a box or a test changes.
 */
jest.setTimeout(180_000);

const suite = useBrowserSuite();

const LOCATION = PLACEMENTS_LOCATION;

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

it('says a rule typed as JSON once typing pauses, not "Not JSON yet" and the rule in turn at each key', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  await page.goto(`/placements?location=${LOCATION}`);
  const card = await addWelcomeCard(page);
  const rule = card.getByRole('group', { name: /^Shown when rule of/ });
  // The rule's words: the group's description and a polite live region.
  const hint = `[id="${await rule.getAttribute('aria-describedby')}"]`;
  await expect(page.locator(hint).getAttribute('aria-live')).resolves.toBe('polite');
  await rule.getByRole('button', { name: /^Edit as JSON/ }).click();
  const box = rule.getByLabel(/^JSON of the Shown when rule of/);
  await box.focus();
  const said = await recordTexts(page, hint);
  // Typed as a person types (well under the pause of 0.7 s between keys): JSON at `{}` and not again until the last
  // `}`, so words that followed each key would have flipped at `{`, `{}` and `{"`, and again at the end.
  await page.keyboard.type('{}', { delay: 40 });
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type('"tenants": ["acme"]', { delay: 40 });
  await expect(box.inputValue()).resolves.toBe('{"tenants": ["acme"]}');
  await page.locator(hint).getByText('Shown to: tenant acme.').waitFor();
  await page.waitForTimeout(1_000);
  expect(await said()).toEqual(['Shown to: tenant acme.']);
  // Back in the builder, a test chosen is said at once: in the live region as the change event is handled.
  await rule.getByRole('button', { name: /^Edit as JSON/ }).click();
  await rule.getByLabel(/^Test of condition 1/).selectOption('not');
  expect(await said()).toEqual(['Shown to: tenant acme.', 'Shown to: not tenant acme.']);
  expect(log.pageErrors).toEqual([]);
});
