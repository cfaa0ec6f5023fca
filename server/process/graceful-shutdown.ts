import type { Logger } from 'pino';
import { readInteger } from '../config/env-values';
import { endLog } from '../logger';
import { NoAnswerError, withinDeadline } from '../storage/within-deadline';
import type { ServerLifecycle } from './server-lifecycle';

export interface ShutdownSettings {
  /** Time between "not ready" and closing the listener, for the balancer to notice (`SHUTDOWN_DELAY_MS`, 0). */
  drainDelayMs: number;
  /**
   * Longest wait for in-flight requests before their connections are cut (`SHUTDOWN_TIMEOUT_MS`, 10 s); closing the
   * stores gets what is left of it, at least STORES_CLOSE_MIN_MS.
   */
  timeoutMs: number;
}

/**
 * The least time closing the stores gets, however much of SHUTDOWN_TIMEOUT_MS the requests took: room for the last
 * spans' wait (LAST_SPANS_WAIT_MS, 2 s), and within the margin the deploy files leave above the drain (8 s and more).
 */
export const STORES_CLOSE_MIN_MS = 3_000;

/** Logged when the stores did not close in time (a PostgreSQL or Redis that stopped answering holds them). */
export const STORES_CLOSE_TIMEOUT_MESSAGE =
  'shutdown: the stores did not close in time (a database or Redis not answering?); exiting without waiting for them';

export function shutdownSettingsFromEnv(env: NodeJS.ProcessEnv): ShutdownSettings {
  return {
    drainDelayMs: readInteger(env, 'SHUTDOWN_DELAY_MS', 0),
    timeoutMs: readInteger(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 1),
  };
}

/** What the shutdown needs of a server: http.Server, and the HTTPS server (secure-server.ts), which closes alike. */
export interface ClosableServer {
  close(callback: (error?: Error) => void): unknown;
  /** Closes the connections with no request in flight (HTTP/2: a GOAWAY, in-flight streams still finish). */
  closeIdleConnections(): void;
  /** Cuts every connection, requests in flight included. */
  closeAllConnections(): void;
}

export interface GracefulShutdownOptions {
  server: ClosableServer;
  lifecycle: ServerLifecycle;
  logger: Logger;
  settings: ShutdownSettings;
  /** Closes what the app opened (database, Redis, timers); runs after the last request finished. */
  closeResources: () => Promise<void>;
  /**
   * The stores closeResources has not closed yet, as log lines name them (`PostgreSQL "slots" on db:5432`, `Redis at
   * redis://…`): said when closing them did not end in time. The app closes its parts side by side, the database
   * last (App.close), so a store that answers is closed by then and not named: Redis, behind a frozen PostgreSQL that
   * the last slot counts wait for.
   */
  storesNotClosed?: () => readonly string[];
  /** process.exit unless a test replaces it. */
  exit?: (code: number) => void;
}

export type ShutdownOutcome = 'clean' | 'forced' | 'failed';

/**
 * Stops the server in order: readiness off, (delay), stop accepting connections, let in-flight requests finish
 * (cutting them after the timeout), close the stores, exit — 0 when everything finished cleanly.
 * Returns the function to call on SIGTERM/SIGINT; it runs once, whatever calls it.
 */
export function createGracefulShutdown(options: GracefulShutdownOptions): (reason: string) => Promise<ShutdownOutcome> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let running: Promise<ShutdownOutcome> | null = null;

  const run = async (reason: string): Promise<ShutdownOutcome> => {
    const { server, lifecycle, logger, settings } = options;
    logger.info({ reason, drainDelayMs: settings.drainDelayMs }, 'shutting down: no longer ready');
    lifecycle.startDraining();
    if (settings.drainDelayMs > 0) await delay(settings.drainDelayMs);

    let forced = false;
    const closesBy = Date.now() + settings.timeoutMs;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections with no request in flight would hold close() open; in-flight ones are left to finish.
    server.closeIdleConnections();
    const deadline = setTimeout(() => {
      forced = true;
      logger.warn({ timeoutMs: settings.timeoutMs }, 'shutdown timeout: cutting the requests still in flight');
      // Before the cut: with LOG_REQUESTS, each request gets its line now, while the process is sure to run.
      lifecycle.cuttingRequests();
      server.closeAllConnections();
    }, settings.timeoutMs);
    await closed;
    clearTimeout(deadline);

    let outcome: ShutdownOutcome = forced ? 'forced' : 'clean';
    // A frozen PostgreSQL keeps the pool's connections checked out until its query timeout, which an operator may
    // have set far above SHUTDOWN_TIMEOUT_MS: the orchestrator's SIGKILL would come first, with nothing logged.
    const storesMs = Math.max(closesBy - Date.now(), STORES_CLOSE_MIN_MS);
    // Named on the timeout line and the last one, for an operator who reads only that.
    let notClosed: { notClosed?: readonly string[] } = {};
    try {
      await withinDeadline(options.closeResources(), storesMs);
    } catch (error) {
      outcome = 'failed';
      if (error instanceof NoAnswerError) {
        notClosed = { notClosed: options.storesNotClosed?.() };
        logger.error({ waitedMs: storesMs, ...notClosed }, STORES_CLOSE_TIMEOUT_MESSAGE);
      } else logger.error({ err: error }, 'shutdown: closing resources failed');
    }
    logger.info({ outcome, ...notClosed }, 'stopped');
    await endLog(logger);
    exit(outcome === 'clean' ? 0 : 1);
    return outcome;
  };

  return (reason) => (running ??= run(reason));
}

/**
 * Calls `shutdown` on SIGTERM and SIGINT; a second signal while it runs exits at once (1), as an impatient
 * operator pressing Ctrl-C twice expects (`exit` hears which signal it was). Returns a function that removes the
 * handlers (tests).
 */
export function shutdownOnSignals(
  shutdown: (reason: string) => Promise<unknown>,
  exit: (code: number, signal: NodeJS.Signals) => void = (code) => process.exit(code),
): () => void {
  let received = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    received++;
    if (received > 1) {
      exit(1, signal);
      return;
    }
    void shutdown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
