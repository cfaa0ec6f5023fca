import type { Logger } from 'pino';
import { isDatabaseUnavailable } from './database-unavailable';

/** The line of an outage's start, an error with the reason (`err`), as Redis's (redis-session-storage.ts). */
export const POSTGRES_STOPPED_MESSAGE =
  'PostgreSQL stopped answering: requests that need the database answer 503 until it answers again (retrying with each request)';

/** The line of an outage's end, with how long it lasted (`downForMs` beside it). */
export function postgresAnswersAgainMessage(downForMs: number): string {
  return `PostgreSQL answers again, after ${Math.round(downForMs / 100) / 10} s`;
}

/** What the engine's pool tells of each connection it tries to open (PostgresEngine). */
export interface ConnectionWatch {
  /** A connection attempt starts: its outcome is told with the number returned. */
  attempting(): number;
  opened(attempt: number): void;
  failed(attempt: number, error: unknown): void;
}

/** Told nothing: for commands and tests that log no outage. */
export const UNWATCHED_CONNECTIONS: ConnectionWatch = {
  attempting: () => 0,
  opened: () => undefined,
  failed: () => undefined,
};

/**
 * PostgreSQL's outages, said once each way: when a connection of the pool could not be opened for a reason that
 * means the server cannot answer (refused, unreachable, timed out, shutting down: isDatabaseUnavailable), and when
 * one opens again, with how long it was down. Meanwhile every request that needs the database fails alike, each
 * logged as a one-line warning by the error handler. Several requests failing at once start one outage; an attempt
 * that fails after a later one opened (a slow connect timing out once the server is back) starts none.
 *
 * Watched at the connections, and by the health watch's probes (DatabaseHealthWatch): PostgreSQL restarting or gone
 * drops the pool's connections, so every request then needs a new one; a frozen server keeps them open, and the
 * queries sent on them (through Kysely, which gives a connection back to the pool even after its query timed out)
 * wait on them, so no new connection may ever be needed. The probe unanswered within its deadline says it then.
 */
export class PostgresOutageLog implements ConnectionWatch {
  private attempts = 0;
  /** The latest attempt that opened a connection. */
  private lastOpened = 0;
  /** When the outage started; null while PostgreSQL answers. */
  private downSince: number | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  attempting(): number {
    return ++this.attempts;
  }

  opened(attempt: number): void {
    this.lastOpened = Math.max(this.lastOpened, attempt);
    this.answered();
  }

  failed(attempt: number, error: unknown): void {
    if (attempt < this.lastOpened || !isDatabaseUnavailable(error)) return;
    this.unanswered(error);
  }

  /** A probe of the health watch went unanswered (its deadline passed) or failed as the database being away. */
  unanswered(error: unknown): void {
    if (this.downSince !== null) return;
    this.downSince = this.now();
    this.logger.error({ err: error }, POSTGRES_STOPPED_MESSAGE);
  }

  /** PostgreSQL answered: a connection opened, or a probe of the health watch was answered. */
  answered(): void {
    if (this.downSince === null) return;
    const downForMs = this.now() - this.downSince;
    this.downSince = null;
    this.logger.info({ downForMs }, postgresAnswersAgainMessage(downForMs));
  }
}
