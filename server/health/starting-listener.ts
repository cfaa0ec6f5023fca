import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { endLog } from '../logger';
import { shutdownOnSignals } from '../process/graceful-shutdown';
import { listenRefusal } from '../process/listen-refusal';
import type { SecureServer } from '../process/secure-server';
import { StartStopped, type StartProgress } from '../process/start-progress';
import type { StartingGate } from './starting-gate';

/**
 * Logged when a start that takes long (the schema steps or the wait for another host's, the search words' indexing
 * or the wait for another host's) listens before it has finished; `listening` follows once it has.
 */
export const STARTING_LISTENER_MESSAGE =
  'listening while starting: /healthz answers 200, /readyz and every other request 503 until the start has finished';

/** Logged when SIGTERM or SIGINT comes while a host listens before its start has finished. */
export const STOPPING_START_MESSAGE =
  'stopping the start: the step, batch or lock wait under way ends first, then locks are let go and the database closed';

/**
 * Logged when a second signal comes while the start stops: the process exits at once with 1, the step or batch under
 * way not waited for (PostgreSQL rolls it back once it sees the connection gone; the next start does it again).
 */
export const STOPPED_AT_ONCE_MESSAGE =
  'start stopped at once by a second signal: the step or batch under way is rolled back, the next start does it again';

/** Logged last by a start stopped by a signal, before it exits with 0. */
export const START_STOPPED_MESSAGE =
  'start stopped: nothing half done is kept (each schema step and batch of search words commits on its own); the ' +
  'next start goes on from there';

type Server = http.Server | SecureServer;

/**
 * The listener of a start, opened early when the start says it takes long (StartProgress.longStart): answering the
 * probes meanwhile through the gate (a host that listened only once started was a dead one to its orchestrator's
 * liveness probe), refusing the start at once when its port is taken (it found so only after minutes of work), and
 * stopping the start cleanly on SIGTERM/SIGINT (which, with no handler yet, ended the process mid-work). A start with
 * nothing long to do listens once ready, as before: none of this happens.
 */
export class StartingListener {
  private listening: Promise<unknown> | undefined;
  private early: Promise<void> | undefined;
  private removeSignalHandlers: (() => void) | undefined;
  private stoppedBy: NodeJS.Signals | undefined;

  constructor(
    private readonly server: Server,
    private readonly gate: StartingGate,
    private readonly startup: StartProgress,
    private readonly logger: Logger,
    private readonly address: { host: string; port: number },
  ) {
    startup.onLongStart((reason) => {
      gate.starting(reason);
      return (this.early ??= this.listenEarly(reason));
    });
  }

  /** Listens (once); settles with the error that refused the listener, or undefined once it listens. */
  listen(): Promise<unknown> {
    return (this.listening ??= new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.address.port, this.address.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    }).then(
      () => undefined,
      (error: unknown) => error ?? new Error('listen failed'),
    ));
  }

  /**
   * The start has finished: the normal shutdown takes over the signals. A signal that came after the start's last
   * safe point runs it at once.
   */
  handOver(shutdown: (reason: string) => Promise<unknown>): void {
    this.removeSignalHandlers?.();
    shutdownOnSignals(shutdown);
    if (this.stoppedBy !== undefined) void shutdown(this.stoppedBy);
  }

  /**
   * The start failed or was stopped: closes the listener it opened, then `closeApp` (its locks are let go with the
   * database's connections). A start stopped by a signal says so and ends the process, 0 when everything closed.
   */
  async abandon(error: unknown, closeApp: () => Promise<void>): Promise<void> {
    this.removeSignalHandlers?.();
    if (this.listening && (await this.listening) === undefined) await this.close();
    if (!(error instanceof StartStopped)) return closeApp();
    const closed = await closeApp().then(
      () => true,
      (closeError: unknown) => {
        this.logger.error({ err: closeError }, 'stopping the start: the database did not close cleanly');
        return false;
      },
    );
    this.logger.info({ signal: error.signal }, START_STOPPED_MESSAGE);
    // As on a second signal: stdout is written asynchronously, and an exit at once could lose the last lines.
    await endLog(this.logger);
    process.exit(closed ? 0 : 1);
  }

  private async listenEarly(reason: string): Promise<void> {
    const refused = await this.listen();
    if (refused !== undefined) {
      // Said at once, as a start that listens once ready says it, and before any work: not after minutes of it.
      this.startup.stop(
        await listenRefusal(refused, { host: 'HOST', port: 'PORT' }, this.address.host, this.address.port),
      );
      return;
    }
    const { port } = this.server.address() as AddressInfo;
    this.logger.info({ host: this.address.host, port, starting: reason }, STARTING_LISTENER_MESSAGE);
    // A second signal while the start stops ends the process at once (1), as during a shutdown, and says so: an exit
    // with 1 and no line left the operator guessing whether the step under way was kept.
    this.removeSignalHandlers = shutdownOnSignals(
      async (signal) => {
        const stopping = signal as NodeJS.Signals;
        this.stoppedBy = stopping;
        this.logger.info({ signal: stopping }, STOPPING_START_MESSAGE);
        this.gate.starting(`stopping: ${stopping} received`);
        this.startup.stop(new StartStopped(stopping));
      },
      (code, signal) => {
        this.logger.warn({ signal }, STOPPED_AT_ONCE_MESSAGE);
        void endLog(this.logger).finally(() => process.exit(code));
      },
    );
  }

  /** Closes the listener, with the probes' connections it holds. */
  private close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    return closed;
  }
}
