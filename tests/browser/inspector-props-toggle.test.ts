import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * The slot inspector's registered slots at the desktop widths its table is made to fit (tool-pages-layout.test.ts):
 * each slot's Props toggle reads on one line, its marker beside its word, the table still whole in its frame.
 */
jest.setTimeout(120_000);

const suite = useBrowserSuite();

describe('the registered slots’ Props toggles', () => {
  it.each([
    ['1024', { width: 1024, height: 768 }],
    ['1280', { width: 1280, height: 900 }],
  ] as const)('are each one line at %s px, the table fitting its frame', async (_, viewport) => {
    const { page } = await suite.newPage({ viewport });
    await signIn(page);
    await page.goto('/inspect');
    await page.getByRole('heading', { name: 'Remotes' }).waitFor();
    await waitForSettledPage(page);
    const registered = page.getByRole('region', { name: /^Every slot of every location/ });
    const toggles = await registered.locator('details summary').evaluateAll((summaries) =>
      summaries.map((summary) => {
        // One line: the summary no taller than its own line height (the marker and the word side by side).
        const lineHeight = parseFloat(getComputedStyle(summary).lineHeight);
        return {
          name: summary.getAttribute('aria-label'),
          lines: Math.round(summary.getBoundingClientRect().height / lineHeight),
        };
      }),
    );
    expect(toggles.length).toBeGreaterThan(0);
    expect(toggles.filter((toggle) => toggle.lines !== 1)).toEqual([]);
    expect(await registered.evaluate((frame) => frame.scrollWidth <= frame.clientWidth)).toBe(true);
  });
});
