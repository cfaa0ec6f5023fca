import { Kysely, PostgresDialect, sql } from 'kysely';
import { Pool, types, type CustomTypesConfig } from 'pg';
import type { AppSchema } from './app-schema';
import { POSTGRES_MIGRATIONS } from './migrations';
import { migratePostgres } from './postgres-migrate';
import type { EngineDialect, StorageEngine } from './storage-engine';

/** DATABASE_URL and its companions (server/config/ reads them). */
export interface PostgresSettings {
  /** postgres:// or postgresql://; `sslmode` and the other libpq parameters in it are honoured. */
  url: string;
  /** Most connections this process opens (DATABASE_POOL_SIZE). */
  poolSize: number;
  /** Longest a statement may run before PostgreSQL cancels it, and longest a connection may take to open. */
  statementTimeoutMs: number;
}

/** The advisory lock of StorageEngine.exclusive (distinct from the migration lock). */
export const EXCLUSIVE_LOCK_KEY = 0x5107_5d8b;
const BIGINT_OID = 20;

/** BIGINT columns hold milliseconds and counts, far below 2^53: read them as numbers, not strings. */
const BIGINT_AS_NUMBER: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === BIGINT_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

const POSTGRES_DIALECT: EngineDialect = {
  usernameIs: (username) => sql<boolean>`lower(username) = lower(${username})`,
  tenantCreationOrder: sql`tenants.created_seq`,
  // Compared as JSON values (jsonb equality), so the number 3 and the string "3" stay apart as in SQLite.
  recordFieldIs: (key, value) => sql<boolean>`(data::jsonb -> ${key}) = ${JSON.stringify(value)}::jsonb`,
};

/**
 * The engine for several hosts: a PostgreSQL server reached through a pg Pool, queried through Kysely. Migrations
 * run in `migrate()` (at `app.ready()`), under an advisory lock.
 */
export class PostgresEngine implements StorageEngine {
  readonly kind = 'postgres';
  readonly db: Kysely<AppSchema>;
  readonly dialect = POSTGRES_DIALECT;
  /** The pool; the session store and the sign-in counters share it. */
  readonly pool: Pool;
  private localWrites = 0;
  private turnVersion: Promise<string> | null = null;
  private closing: Promise<void> | null = null;
  private readonly forgetTurnVersion = (): void => {
    this.turnVersion = null;
  };

  constructor(
    settings: PostgresSettings,
    /** Where errors of idle connections go (PostgreSQL restarted, network cut): logged, never thrown. */
    onIdleError: (error: Error) => void,
  ) {
    this.pool = new Pool({
      connectionString: settings.url,
      max: settings.poolSize,
      statement_timeout: settings.statementTimeoutMs,
      // A server that does not answer at all must not hang requests (and /readyz) beyond the statement timeout.
      query_timeout: settings.statementTimeoutMs + 1000,
      connectionTimeoutMillis: settings.statementTimeoutMs,
      keepAlive: true,
      application_name: 'slots-server',
      types: BIGINT_AS_NUMBER,
    });
    // Without a listener, an idle connection dropped by a PostgreSQL restart would crash the process.
    this.pool.on('error', onIdleError);
    this.db = new Kysely<AppSchema>({ dialect: new PostgresDialect({ pool: this.pool }) });
  }

  exclusive<T>(work: (db: Kysely<AppSchema>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${EXCLUSIVE_LOCK_KEY})`.execute(trx);
      return work(trx);
    });
  }

  /**
   * The `data_version` counter (moved by triggers on every change of users, tenants, memberships and records, by
   * any host) and this process's own write count. Chosen over a TTL, which would let a disabled account or a
   * changed password live on another host until it expires, and over LISTEN/NOTIFY, whose delivery trails the
   * commit: one primary-key read, shared by every caller in the same event-loop turn (as SQLite's data_version
   * is), so a write committed by any host before a request arrived is seen by that request.
   */
  changeStamp(): Promise<string> {
    if (this.turnVersion === null) {
      const writes = this.localWrites;
      this.turnVersion = sql<{ version: number }>`SELECT version FROM data_version`
        .execute(this.db)
        .then((result) => `${result.rows[0]?.version ?? 0}.${writes}`);
      // A failed read is not shared beyond this turn either; the caller gets the rejection.
      this.turnVersion.catch(() => undefined);
      setImmediate(this.forgetTurnVersion);
    }
    return this.turnVersion;
  }

  noteWrite(): void {
    this.localWrites++;
    // This process's write shows at once, not from the next turn on.
    this.turnVersion = null;
  }

  async migrate(): Promise<void> {
    await migratePostgres(this.pool, POSTGRES_MIGRATIONS);
  }

  async check(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /** Ends the pool (waits for checked-out connections to come back). Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      // Kysely ends the pool only when it ran a query itself; the session store or /readyz may be all that did.
      await this.db.destroy();
      if (!this.pool.ended) await this.pool.end();
    })();
    return this.closing;
  }
}
