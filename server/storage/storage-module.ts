import type { Logger } from 'pino';
import type { AppModule, Readiness } from '../app-module';
import type { AppDatabase } from './app-database';
import { DatabaseHealthWatch } from './database-health-watch';
import { openStorage, type StorageSettings } from './open-storage';
import { lockHolderWords, type AdvisoryLockHolder } from './advisory-lock';
import { PostgresOutageLog } from './postgres-outage-log';
import { SqliteEngine } from './sqlite-engine';
import type { StorageEngine } from './storage-engine';
import { READINESS_CHECK_DEADLINE_MS, withinDeadline } from './within-deadline';

/**
 * What a PostgreSQL host says before waiting for the migration lock: the first host of a new release applying its
 * steps holds it (then this one finds them applied), and so may a host that froze mid-migration or an operator's
 * session. The start waits without a deadline; this line is what an operator watching a silent start reads.
 */
export function migrationLockWaitMessage(holder: AdvisoryLockHolder | null): string {
  return (
    `waiting for the database migration lock, held by ${lockHolderWords(holder)}: the start goes on once it is let go ` +
    '(a host applying the schema steps holds it until it has applied them)'
  );
}

/**
 * The start's progress as the database sees it (process/start-progress.ts's StartProgress, which sits above
 * storage): told before a long part of the start, and stopped through `signal`.
 */
export interface LongStartWatch {
  readonly signal: AbortSignal;
  longStart(reason: string): Promise<void>;
}

/** `/readyz`'s `starting` while a PostgreSQL host applies the schema steps the database lacks. */
export function schemaStepsMessage(versions: readonly number[]): string {
  const steps = versions.length === 1 ? `step ${versions[0]}` : `steps ${versions[0]} to ${versions.at(-1)}`;
  return `applying the database schema ${steps}`;
}

/**
 * The database every other module keeps its data in: first of the app's modules, so it is migrated before any
 * loads and closed after every one has closed (the last slot counts are written to it as its neighbours close).
 */
export class StorageModule implements AppModule {
  readonly engine: StorageEngine;
  private readonly outageLog: PostgresOutageLog;
  /** PostgreSQL's, once migrated: SQLite is a file of this host's, never out of reach. */
  private healthWatch: DatabaseHealthWatch | null = null;

  constructor(
    settings: StorageSettings,
    private readonly logger: Logger,
    /** The start's (App.startup): the lock wait and the steps are long starts, listened during, and stoppable. */
    private readonly startup?: LongStartWatch,
  ) {
    this.outageLog = new PostgresOutageLog(logger);
    this.engine = openStorage(
      settings,
      (error) => logger.warn({ err: error }, 'database: an idle connection or a background index build failed'),
      this.outageLog,
    );
  }

  /** The SQLite file, when the data lives in one (not with DATABASE_URL). */
  get sqliteFile(): AppDatabase {
    if (!(this.engine instanceof SqliteEngine)) {
      throw new Error('The data lives in PostgreSQL (DATABASE_URL): there is no SQLite file.');
    }
    return this.engine.file;
  }

  /**
   * PostgreSQL: the migrations, under the advisory lock (SQLite was migrated when the file was opened). The steps
   * applied are logged: an upgrade that changed the schema says so (its backup is the one taken before).
   */
  async load(): Promise<void> {
    const startup = this.startup;
    const applied = await this.engine.migrate({
      waiting: (holder) => {
        this.logger.info({ lockHolder: holder }, migrationLockWaitMessage(holder));
        // Not awaited: a start stopped meanwhile ends the wait through the signal.
        startup?.longStart(migrationLockWaitMessage(holder)).catch(() => undefined);
      },
      applying: async (versions) => startup?.longStart(schemaStepsMessage(versions)),
      ...(startup ? { signal: startup.signal } : {}),
      taken: (waitedMs) =>
        this.logger.info({ waitedMs }, `database migration lock taken after ${(waitedMs / 1000).toFixed(1)} s`),
    });
    if (this.engine.kind === 'postgres') {
      this.healthWatch = new DatabaseHealthWatch(() => this.engine.check(), this.outageLog);
      this.healthWatch.start();
    }
    if (applied.length === 0) return;
    const from = Math.min(...applied) - 1;
    const to = Math.max(...applied);
    this.logger.info(
      { from, to, steps: applied.length },
      from === 0 ? 'database schema created' : 'database schema migrated',
    );
  }

  async readiness(): Promise<Readiness> {
    try {
      // A database that stops answering with its connections open (PostgreSQL frozen, its host or network gone)
      // would hold the check until the statement timeout (5 s by default): failing past the checks' deadline.
      await withinDeadline(
        Promise.resolve().then(() => this.engine.check()),
        READINESS_CHECK_DEADLINE_MS,
      );
      return { database: 'ok' };
    } catch {
      return { database: 'failing' };
    }
  }

  close(): Promise<void> {
    this.healthWatch?.stop();
    return this.engine.close();
  }
}
