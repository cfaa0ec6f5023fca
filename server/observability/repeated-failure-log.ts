import type { Logger } from 'pino';
import { unavailableReason } from '../storage/database-unavailable';

/** How often a failure that repeats (a poll every second while the database is away) is logged again. */
export const REPEATED_FAILURE_LOG_INTERVAL_MS = 30_000;

export interface RepeatedFailureLogOptions {
  /**
   * What the reader reads from, as the operator knows it: the database's StorageEngine.displayName
   * (`PostgreSQL "slots" on db.internal:5432`, `SQLite /data/app.db`). Required: "the database" told an operator
   * with several servers or files nothing about which one to look at.
   */
  store: string;
  intervalMs?: number;
  now?: () => number;
}

/**
 * A warning for a failure that repeats at every poll of a background reader: the first one logged, then at most one
 * line per interval, saying how many failed since the last line. A database away for a minute gives three lines per
 * reader, not sixty per host.
 *
 * Each line is one line an operator reads at a glance, naming the reader (`message`, e.g. `releases: reading the
 * rollouts failed; asked again`), the store and the cause:
 * `… (PostgreSQL "slots" on 10.0.0.5:5432: connect ECONNREFUSED 10.0.0.5:5432)`,
 * with `reader`, `store` and `cause` beside it. The cause of an outage is the same for every reader and the outage is
 * logged on its own (`PostgreSQL stopped answering`), so the stack, which says only where in the driver it failed, is
 * logged at debug level, for whoever turns it on (LOG_LEVEL=debug).
 */
export function repeatedFailureLog(
  logger: Logger,
  message: string,
  { store, intervalMs = REPEATED_FAILURE_LOG_INTERVAL_MS, now = Date.now }: RepeatedFailureLogOptions,
): (error: unknown) => void {
  let lastLogged = -Infinity;
  let unlogged = 0;
  return (error) => {
    const at = now();
    if (at - lastLogged < intervalMs) {
      unlogged++;
      return;
    }
    const cause = unavailableReason(error);
    const since = unlogged === 0 ? {} : { failedSinceLastLine: unlogged };
    const count = unlogged === 0 ? '' : `; ${unlogged} more failures since the last line`;
    const line = `${message} (${store}: ${cause}${count})`;
    logger.warn({ reader: message, store, cause, ...since }, line);
    logger.debug({ err: error, reader: message, store }, line);
    lastLogged = at;
    unlogged = 0;
  };
}
