/**
 * Resolves once `condition` holds, asking every 50 ms; rejects after `timeoutMs`. For what another host (another
 * app on the same database) takes at its next poll: the tests assert it is seen within a bound, not when.
 */
export async function waitUntil(
  condition: () => Promise<boolean>,
  timeoutMs = 2000,
  /** What is waited for, in the failure (`/readyz answering 503 after SIGTERM`). */
  what = 'the condition',
  pollMs = 50,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
