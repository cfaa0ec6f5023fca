/** How long the page waits before asking GET /me again by itself during an outage. */
export const SESSION_RETRY = {
  /** After the first failure: soon, as a restarted server or store is often back within seconds. */
  firstDelayMs: 2_000,
  /** The longest wait: a page left open through a long outage still comes back within a minute or so of its end. */
  longestDelayMs: 60_000,
} as const;

/**
 * The wait before the next automatic GET /me after `failures` failures in a row: doubling from
 * SESSION_RETRY.firstDelayMs up to SESSION_RETRY.longestDelayMs, each spread by up to a fifth either way (`random`,
 * in [0, 1)) so that the many tabs an outage left waiting do not all ask the recovering server at the same moment.
 * Never sooner than the server's `Retry-After`, when it sent one.
 */
export function sessionRetryDelayMs(
  failures: number,
  retryAfterSeconds: number | null = null,
  random: () => number = Math.random,
): number {
  const doublings = Math.max(0, failures - 1);
  const backoff = Math.min(SESSION_RETRY.firstDelayMs * 2 ** doublings, SESSION_RETRY.longestDelayMs);
  const spread = backoff * (0.8 + 0.4 * random());
  return Math.round(Math.max(spread, (retryAfterSeconds ?? 0) * 1_000));
}
