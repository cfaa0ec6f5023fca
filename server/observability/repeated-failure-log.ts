import type { Logger } from 'pino';

/** How often a failure that repeats (a poll every second while the database is away) is logged again. */
export const REPEATED_FAILURE_LOG_INTERVAL_MS = 30_000;

/**
 * A warning for a failure that repeats at every poll: the first one logged with its error, then at most one line per
 * interval, saying how many failed since the last line. A database away for a minute gives three lines per poll, not
 * sixty stack traces per host, and the first still says why.
 */
export function repeatedFailureLog(
  logger: Logger,
  message: string,
  intervalMs = REPEATED_FAILURE_LOG_INTERVAL_MS,
  now: () => number = Date.now,
): (error: unknown) => void {
  let lastLogged = -Infinity;
  let unlogged = 0;
  return (error) => {
    const at = now();
    if (at - lastLogged < intervalMs) {
      unlogged++;
      return;
    }
    const since = unlogged === 0 ? {} : { failedSinceLastLine: unlogged };
    logger.warn({ err: error, ...since }, unlogged === 0 ? message : `${message} (${unlogged} more failures since)`);
    lastLogged = at;
    unlogged = 0;
  };
}
