/**
 * Polls `probe` every 500 ms until it returns true, failing with `what` after `timeoutMs`; resolves to the time it
 * took. A probe that throws counts as not yet (a container still starting refuses connections), its last error told
 * in the failure. For containers and pods, which take seconds where testing/server/wait-until.ts's apps take
 * milliseconds.
 */
export async function pollUntil(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  let last: unknown;
  while (Date.now() - started < timeoutMs) {
    try {
      if (await probe()) return Date.now() - started;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}
