import { isDatabaseUnavailable } from './database-unavailable';
import { NoAnswerError, READINESS_CHECK_DEADLINE_MS, withinDeadline } from './within-deadline';

/** How often the watch probes the database: a frozen PostgreSQL is logged within this and the probe's deadline. */
export const DATABASE_WATCH_INTERVAL_MS = 5000;

/** Where the watch tells what its probes met (PostgresOutageLog). */
export interface ProbeOutcomes {
  unanswered(error: unknown): void;
  answered(): void;
}

/**
 * Probes PostgreSQL every `intervalMs`, whatever the traffic, so that an outage is logged within a bounded time even
 * when no connection is opened meanwhile: a frozen server (SIGSTOP, its host or network gone) keeps the pool's
 * connections open, and the requests and background readers wait on them, never needing a new one, so the
 * connection watch alone never said it had stopped. A probe unanswered within the readiness checks' deadline, or
 * failing as the database being away (isDatabaseUnavailable), is an outage; one answered ends it. One probe at a
 * time: on a frozen server a probe holds its connection until the pool's query timeout, and more would take the pool.
 */
export class DatabaseHealthWatch {
  private timer: NodeJS.Timeout | undefined;
  /** The probe still waiting for the database (past its deadline, too), if any. */
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly check: () => Promise<void>,
    private readonly outcomes: ProbeOutcomes,
    private readonly intervalMs = DATABASE_WATCH_INTERVAL_MS,
    private readonly deadlineMs = READINESS_CHECK_DEADLINE_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.probe(), this.intervalMs);
    // The watch never keeps a process alive on its own (a command, a test, a server draining).
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One probe, told to the outcomes; skipped while the previous one still waits. */
  async probe(): Promise<void> {
    if (this.inFlight) return;
    const pending = Promise.resolve().then(() => this.check());
    this.inFlight = pending.then(
      () => undefined,
      () => undefined,
    );
    void this.inFlight.then(() => {
      this.inFlight = null;
    });
    try {
      await withinDeadline(pending, this.deadlineMs);
      this.outcomes.answered();
    } catch (error) {
      // A wrong password or a dropped table is not the database away: the requests say those themselves.
      if (error instanceof NoAnswerError || isDatabaseUnavailable(error)) this.outcomes.unanswered(error);
    }
  }
}
