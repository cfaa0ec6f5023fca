import { useBrowserSuite } from '../../testing/system/browser-suite';
import { waitForSlot } from '../../testing/system/slot-page';

jest.setTimeout(60_000);

const suite = useBrowserSuite();

/**
 * Before the page's own scripts: records each read of the federation runtime's debug switch, and whether the shell
 * had rendered by then (host/loader/federation-env.ts moves that read after the first render; host/bootstrap.tsx makes
 * it when the browser is next idle). Not whether the slots had: a remote slower than the shell's wait for its modules
 * (SHELL_WAITS_FOR_MODULES_MS, on a busy machine) renders its slots after that.
 */
function recordSwitchReads(switchOn: boolean): void {
  const reads: Array<{ shellRendered: boolean }> = [];
  (window as unknown as { switchReads: typeof reads }).switchReads = reads;
  if (switchOn) window.localStorage.setItem('FEDERATION_DEBUG', '1');
  const getItem = Storage.prototype.getItem;
  Storage.prototype.getItem = function (this: Storage, key: string) {
    if (key === 'FEDERATION_DEBUG') {
      // The shell has replaced index.html's "Loading the admin…" placeholder in #root.
      const root = document.getElementById('root');
      reads.push({ shellRendered: root?.firstElementChild != null && root.querySelector('.boot') === null });
    }
    return getItem.call(this, key);
  };
}

async function switchReads(page: import('playwright-core').Page): Promise<Array<{ shellRendered: boolean }>> {
  await page.waitForFunction(() => (window as unknown as { switchReads: unknown[] }).switchReads.length > 0);
  return page.evaluate(() => (window as unknown as { switchReads: Array<{ shellRendered: boolean }> }).switchReads);
}

describe("the federation runtime's debug switch", () => {
  it('is read once the shell has rendered, not while the runtime starts', async () => {
    const { page } = await suite.newPage();
    await page.addInitScript(recordSwitchReads, false);
    await page.goto('/login');
    await waitForSlot(page, 'login-after-form', 'AccountHelp', { hasText: 'Forgot your password?' });

    const reads = await switchReads(page);
    expect(reads.every((read) => read.shellRendered)).toBe(true);
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
