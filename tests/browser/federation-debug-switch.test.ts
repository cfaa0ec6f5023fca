import { useBrowserSuite } from '../../testing/system/browser-suite';
import { waitForSlot } from '../../testing/system/slot-page';

jest.setTimeout(60_000);

const suite = useBrowserSuite();

/**
 * Before the page's own scripts: records each read of the federation runtime's debug switch, and whether a slot's
 * component had rendered by then (host/loader/federation-env.ts moves that read after the first render).
 */
function recordSwitchReads(switchOn: boolean): void {
  const reads: Array<{ slotRendered: boolean }> = [];
  (window as unknown as { switchReads: typeof reads }).switchReads = reads;
  if (switchOn) window.localStorage.setItem('FEDERATION_DEBUG', '1');
  const getItem = Storage.prototype.getItem;
  Storage.prototype.getItem = function (this: Storage, key: string) {
    if (key === 'FEDERATION_DEBUG') {
      const slots = [...document.querySelectorAll('[data-slot-component]')];
      reads.push({
        slotRendered: slots.some(
          (slot) => (slot.textContent ?? '').trim() !== '' && !slot.querySelector('.slot-loading'),
        ),
      });
    }
    return getItem.call(this, key);
  };
}

async function switchReads(page: import('playwright-core').Page): Promise<Array<{ slotRendered: boolean }>> {
  await page.waitForFunction(() => (window as unknown as { switchReads: unknown[] }).switchReads.length > 0);
  return page.evaluate(() => (window as unknown as { switchReads: Array<{ slotRendered: boolean }> }).switchReads);
}

describe("the federation runtime's debug switch", () => {
  it('is read once the page has rendered its slots, not while the runtime starts', async () => {
    const { page } = await suite.newPage();
    await page.addInitScript(recordSwitchReads, false);
    await page.goto('/login');
    await waitForSlot(page, 'login-after-form', 'AccountHelp', { hasText: 'Forgot your password?' });

    const reads = await switchReads(page);
    expect(reads.every((read) => read.slotRendered)).toBe(true);
    expect(
      await page.evaluate(
        () =>
          '__DEBUG_CONSTRUCTOR__' in (window as unknown as { __FEDERATION__: Record<string, unknown> }).__FEDERATION__,
      ),
    ).toBe(false);
  });

  it('still publishes the runtime for the devtools when it is on', async () => {
    const { page } = await suite.newPage();
    await page.addInitScript(recordSwitchReads, true);
    await page.goto('/login');
    await waitForSlot(page, 'login-after-form', 'AccountHelp', { hasText: 'Forgot your password?' });

    await switchReads(page);
    await page.waitForFunction(
      () =>
        typeof (window as unknown as { __FEDERATION__: Record<string, unknown> }).__FEDERATION__
          .__DEBUG_CONSTRUCTOR__ === 'function',
    );
    expect(
      await page.evaluate(
        () =>
          (window as unknown as { __FEDERATION__: Record<string, unknown> }).__FEDERATION__
            .__DEBUG_CONSTRUCTOR_VERSION__,
      ),
    ).toEqual(expect.any(String));
  });
});
