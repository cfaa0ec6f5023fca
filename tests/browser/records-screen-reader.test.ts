import type { Page } from 'playwright-core';
import { nameOf } from '../../testing/system/accessibility-tree';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * The records' list and form as a staff member who works by keyboard with a screen reader hears them, in Chromium on
 * a real server: what their controls are named in Chromium's accessibility tree, and which of their changes are
 * live (read out as they happen).
 */
jest.setTimeout(90_000);

const suite = useBrowserSuite();

/**
 * How live Chromium has the element (`assertive`, `polite`; '' for a region whose changes are not read out), from
 * its accessibility tree: what a screen reader goes by, the role's implicit liveness and an explicit aria-live
 * weighed as Chromium weighs them.
 */
async function livenessOf(page: Page, selector: string): Promise<string> {
  const devtools = await page.context().newCDPSession(page);
  try {
    const { root } = await devtools.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await devtools.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { nodes } = await devtools.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const live = nodes[0]?.properties?.find((property) => property.name === 'live')?.value.value as string | undefined;
    return live === undefined || live === 'off' ? '' : live;
  } finally {
    await devtools.detach();
  }
}

describe('the filters of a list', () => {
  it('are named by their words alone, not by the triangle drawn before them', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    const summary = page.locator('main details.list-filters-disclosure > summary');

    expect(await nameOf(summary)).toBe('Filters (0): none applied');
    await summary.focus();
    await page.keyboard.press('Enter');
    await page.locator('main details.list-filters-disclosure[open]').waitFor();
    expect(await nameOf(summary)).toBe('Filters (0): none applied');
  });
});

describe('the record form’s list of refused fields', () => {
  it('is read out when the save is refused, and not again at each field fixed while typing', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/articles/new');
    await waitForSettledPage(page);
    const form = page.locator('form[data-resource-form="articles"]');
    const summary = 'form[data-resource-form="articles"] .error-summary';

    await form.getByRole('button', { name: 'Create' }).focus();
    await page.keyboard.press('Enter');
    await form.getByText('2 fields need attention:').waitFor();
    expect(await livenessOf(page, summary)).toBe('assertive');
    expect(await focusedElement(page)).toMatchObject({ name: 'title' });

    // The first letter fixes Title: the list drops it, without cutting into the typing's echo.
    await page.keyboard.type('A');
    await form.getByText('1 field needs attention:').waitFor();
    expect(await livenessOf(page, summary)).toBe('');
    expect(await page.locator(summary).getByRole('link').allInnerTexts()).toEqual(['Label: This field is required.']);

    // Refused again: said again.
    await form.getByRole('button', { name: 'Create' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'label');
    await form.getByText('1 field needs attention:').waitFor();
    expect(await livenessOf(page, summary)).toBe('assertive');
  });
});
