// PostgreSQL as the StorageEngine, one concept kept together: its pool (timeouts, types, the listeners that keep a
// dropped connection from crashing the process), the SQL that differs from SQLite's, the exclusive lock, the change
// stamp shared by every host, and the background index builds. Over 300 lines because each part answers an outage or
// a second host, and split up they would share the pool's private state.
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Client, Pool, types, type ClientConfig, type CustomTypesConfig } from 'pg';
import type { AppSchema } from './app-schema';
import { postgresDatabaseName } from './database-name';
import { POSTGRES_MIGRATIONS } from './migrations';
import { hidePassword } from './hidden-password';
import { takeAdvisoryLock, type AdvisoryLockWait } from './advisory-lock';
import { migratePostgres, type MigrationWatch } from './postgres-migrate';
import { UNWATCHED_CONNECTIONS, type ConnectionWatch } from './postgres-outage-log';
import { SORT_FOLD_FUNCTION } from './sort-fold';
import type { EngineDialect, StorageEngine } from './storage-engine';

/** DATABASE_URL and its companions (server/config/ reads them). */
export interface PostgresSettings {
  /** postgres:// or postgresql://; `sslmode` and the other TLS parameters in it as the `pg` driver reads them (not libpq). */
  url: string;
  /** Most connections of the pool (DATABASE_POOL_SIZE); migrations and index builds open their own. */
  poolSize: number;
  /**
   * Longest a statement of the pool may run before PostgreSQL cancels it, and longest a connection may take to open.
   * Migrations and index builds run on connections of their own, without it.
   */
  statementTimeoutMs: number;
}

/** The advisory lock of StorageEngine.exclusive (distinct from the migration lock). */
export const EXCLUSIVE_LOCK_KEY = 0x5107_5d8b;
/** The advisory lock class of index repairs (the second key is the index name's hash). */
export const INDEX_LOCK_KEY = 0x5107_1d8b;
const INDEX_LOCK_SQL = 'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked';
const INDEX_LOCK_RETRY_MS = 250;
const BIGINT_OID = 20;

/** BIGINT columns hold milliseconds and counts, far below 2^53: read them as numbers, not strings. */
export const BIGINT_AS_NUMBER: CustomTypesConfig = {
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
  listSortKey: (column, kind) => {
    if (kind === 'text') {
      // As SQLite: folded by the same table (sort-fold.ts; lower() would follow the locale), compared as bytes.
      return {
        expression: `(${SORT_FOLD_FUNCTION}(coalesce(data::jsonb ->> '${column}', '')) COLLATE "C")`,
        fromRow: (key) => String(key),
        toSql: (key) => String(key),
      };
    }
    // One column cannot hold numbers and '' as SQLite's does: a missing value is numeric Infinity (no JSON number is),
    // which sorts after every number as '' does there, and reads back as ''. A checkbox counts 1 or 0 as in SQLite.
    const field = `data::jsonb -> '${column}'`;
    return {
      expression:
        `coalesce(CASE jsonb_typeof(${field}) WHEN 'number' THEN (${field})::numeric ` +
        `WHEN 'boolean' THEN CASE WHEN (${field})::boolean THEN 1 ELSE 0 END END, 'Infinity')`,
      fromRow: (key) => {
        const number = Number(key);
        return number === Infinity ? '' : number;
      },
      toSql: (key) => (typeof key === 'number' ? key : 'Infinity'),
    };
  },
};

/**
 * The engine for several hosts: a PostgreSQL server reached through a pg Pool, queried through Kysely. Migrations
 * run in `migrate()` (at `app.ready()`), under an advisory lock.
 */
export class PostgresEngine implements StorageEngine {
  readonly kind = 'postgres';
  readonly displayName: string;
  readonly db: Kysely<AppSchema>;
  readonly dialect = POSTGRES_DIALECT;
  /** The pool; the session store and the sign-in counters share it. */
  readonly pool: Pool;
  private localWrites = 0;
  /** Indexes built or being built by this process (names): each is started once, again only after a failure. */
  private readonly ensuredIndexes = new Set<string>();
  /** The index builds of this process still running. */
  private readonly indexBuilds = new Set<Promise<void>>();
  /** The last read of the change stamp, with the number of requests started when it was sent. */
  private lastRead: { stamp: Promise<string>; requests: number } | null = null;
  private requests = 0;
  private closing: Promise<void> | null = null;
  closed = false;
  /**
   * Where failures nobody awaits go (an idle connection dropped by a PostgreSQL restart or a network cut, a background
   * index build): logged, never thrown, each once. An idle connection's error reaches both its own listener and the
   * pool's (which re-emits it): a stop of PostgreSQL with five idle connections logged eight warnings.
   */
  private readonly onIdleError: (error: Error) => void;

  constructor(
    private readonly settings: PostgresSettings,
    reportIdleError: (error: Error) => void,
    /** Told how each connection the pool tries to open ends: PostgreSQL's outages are logged from it. */
    connections: ConnectionWatch = UNWATCHED_CONNECTIONS,
  ) {
    // As a connection of the pool reads the URL (then PGHOST and the others); an unconnected client opens nothing.
    this.displayName = postgresDatabaseName(new Client({ connectionString: settings.url }));
    this.pool = new Pool({
      Client: watchedClient(connections),
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
    // Without a listener, an idle connection dropped by a PostgreSQL restart would crash the process. The pool
    // listens on idle connections only: a shutdown's FATAL can also reach a connection between the end of its
    // query and its return to the pool, so every connection gets a listener of its own for its whole life.
    const reported = new WeakSet<Error>();
    this.onIdleError = (error) => {
      if (reported.has(error)) return;
      reported.add(error);
      reportIdleError(error);
    };
    this.pool.on('error', this.onIdleError);
    this.pool.on('connect', (client) => client.on('error', this.onIdleError));
    this.db = new Kysely<AppSchema>({ dialect: new PostgresDialect({ pool: this.pool }) });
  }

  /** Waiting for the lock counts against the statement timeout: exclusive work must stay short (seeding is). */
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
   * commit: one primary-key read, so that a write committed by any host before a request arrived is seen by it.
   *
   * A read is shared by every caller for as long as no request started after it was sent (`noteRequestStart`): it
   * was sent after every request being handled had arrived, so it has missed nothing any of them must see. A
   * signed-in request (user, memberships, dashboards) then reads it once, and requests arriving together share it.
   */
  changeStamp(): Promise<string> {
    if (this.lastRead !== null && this.lastRead.requests === this.requests) return this.lastRead.stamp;
    const writes = this.localWrites;
    const stamp = sql<{ version: number }>`SELECT version FROM data_version`
      .execute(this.db)
      .then((result) => `${result.rows[0]?.version ?? 0}.${writes}`);
    const read = { stamp, requests: this.requests };
    this.lastRead = read;
    // A failed read is not shared: the callers waiting on it get the rejection, the next caller reads again.
    stamp.catch(() => {
      if (this.lastRead === read) this.lastRead = null;
    });
    return stamp;
  }

  noteRequestStart(): void {
    this.requests++;
  }

  noteWrite(): void {
    this.localWrites++;
    // This process's write shows at once.
    this.lastRead = null;
  }

  /** On a connection of its own, without the pool's timeouts (waiting for another instance's migration is fine). */
  async migrate(lockWait?: MigrationWatch): Promise<readonly number[]> {
    const client = await this.connectionOfItsOwn('slots-server migrations');
    try {
      return await migratePostgres(client, POSTGRES_MIGRATIONS, lockWait);
    } finally {
      await client.end();
    }
  }

  /**
   * Runs `work` (which queries through the pool as usual) while this host holds the session-level advisory lock
   * `key`, taken on a connection of its own without the pool's timeouts: the wait for another host's work has no
   * deadline, and `lockWait` hears of it. Ending that connection lets the lock go, also when the host dies.
   */
  async whileLocked<T>(
    key: number,
    application: string,
    work: () => Promise<T>,
    lockWait?: AdvisoryLockWait,
  ): Promise<T> {
    const client = await this.connectionOfItsOwn(application);
    try {
      await takeAdvisoryLock(client, key, lockWait);
      return await work();
    } finally {
      await client.end();
    }
  }

  /** A connected client outside the pool, named `application` in pg_stat_activity (and in a lock wait's line). */
  private async connectionOfItsOwn(application: string): Promise<Client> {
    const client = new Client({
      connectionString: this.settings.url,
      connectionTimeoutMillis: this.settings.statementTimeoutMs,
      application_name: application,
    });
    // A PostgreSQL going away meanwhile fails the awaited query; the connection's own error must not crash.
    client.on('error', this.onIdleError);
    try {
      await client.connect();
    } catch (error) {
      // The first connection of a start: a bare "connect ECONNREFUSED 127.0.0.1:5432" named neither the database
      // nor the setting to look at.
      throw new Error(
        `Could not connect to PostgreSQL at ${hidePassword(this.settings.url, 'the configured DATABASE_URL')}: ` +
          String((error as { message?: unknown } | null)?.message ?? error),
        { cause: error },
      );
    }
    return client;
  }

  async check(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /**
   * CREATE INDEX CONCURRENTLY, on a connection of its own without the statement timeout (a big table takes long),
   * not awaited: writes on every host go on meanwhile, and queries use the index once it is valid. A build that
   * failed leaves an invalid index behind, dropped so that a later call builds it again; another host building the
   * same index at the same moment is no failure.
   *
   * A build interrupted with its process (SIGTERM, SIGKILL, a lost connection) also leaves an invalid index, which
   * `IF NOT EXISTS` would keep for good, the sort scanning ever after: one found invalid is dropped and built again,
   * unless a backend is building it right now (an index being built looks just as invalid). Hosts of this server
   * check and repair one index at a time (an advisory lock on its name), so one never drops another's fresh build.
   */
  ensureIndex(name: string, definition: string): Promise<void> {
    if (this.closing || this.ensuredIndexes.has(name)) return Promise.resolve();
    this.ensuredIndexes.add(name);
    const build = async (): Promise<void> => {
      const client = new Client({ connectionString: this.settings.url, application_name: 'slots-server index' });
      client.on('error', this.onIdleError);
      await client.connect();
      try {
        // Tried, not waited for: a statement waiting for the lock would be a transaction that another host's
        // CREATE INDEX CONCURRENTLY, holding the lock, waits for in turn (a deadlock).
        while (!(await client.query<{ locked: boolean }>(INDEX_LOCK_SQL, [INDEX_LOCK_KEY, name])).rows[0]?.locked) {
          if (this.closing) return;
          await new Promise((resolve) => setTimeout(resolve, INDEX_LOCK_RETRY_MS));
        }
        const state = await indexState(client, name);
        // Being built elsewhere: that build finishes it (CREATE ... IF NOT EXISTS would only wait for it).
        if (state === 'valid' || state === 'building') return;
        if (state === 'left invalid') await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
        await client.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${definition}`);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code !== '42P07' && code !== '23505') {
          await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`).catch(() => undefined);
          throw error;
        }
      } finally {
        // Ending the session releases the advisory lock.
        await client.end();
      }
    };
    const settled = build().catch((error: unknown) => {
      this.ensuredIndexes.delete(name);
      this.onIdleError(error instanceof Error ? error : new Error(String(error)));
    });
    this.indexBuilds.add(settled);
    void settled.finally(() => this.indexBuilds.delete(settled));
    return Promise.resolve();
  }

  /** Resolves once the index builds started by this process so far have ended, built or failed (and logged). */
  async indexBuildsSettled(): Promise<void> {
    await Promise.all([...this.indexBuilds]);
  }

  /** Ends the pool (waits for checked-out connections to come back). Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      // Kysely ends the pool only when it ran a query itself; the session store or /readyz may be all that did.
      await this.db.destroy();
      if (!this.pool.ended) await this.pool.end();
      this.closed = true;
    })();
    return this.closing;
  }
}

/**
 * pg's Client, telling `watch` how its connection attempt ended. The pool opens every connection through it (for
 * requests, the session store, the sign-in counters and /readyz alike), so the first attempt that fails and the first
 * that succeeds after it are seen wherever they happen, whatever the query was.
 */
function watchedClient(watch: ConnectionWatch): new (config?: string | ClientConfig) => Client {
  return class WatchedClient extends Client {
    override connect(): Promise<void>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<void> | void {
      const attempt = watch.attempting();
      if (callback === undefined) {
        return super.connect().then(
          () => watch.opened(attempt),
          (error: unknown) => {
            watch.failed(attempt, error);
            throw error;
          },
        );
      }
      super.connect((error?: Error) => {
        if (error) watch.failed(attempt, error);
        else watch.opened(attempt);
        callback(error as Error);
      });
    }
  };
}

/**
 * The index `name`: missing, valid, being built (by any host or client), or left invalid with no backend building
 * it, as a build interrupted with its process leaves it. A build shows in pg_stat_progress_create_index, or, while
 * it waits for older transactions, as a CREATE INDEX naming it in pg_stat_activity.
 */
async function indexState(client: Client, name: string): Promise<'missing' | 'valid' | 'building' | 'left invalid'> {
  const { rows } = await client.query<{ valid: boolean; building: boolean }>(
    `SELECT i.indisvalid AS valid,
            EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = i.indexrelid)
            OR EXISTS (
              SELECT 1 FROM pg_stat_activity a
               WHERE a.pid <> pg_backend_pid() AND a.state <> 'idle'
                 AND a.query ILIKE '%CREATE%INDEX%' AND strpos(a.query, $1) > 0
            ) AS building
       FROM pg_index i
      WHERE i.indexrelid = to_regclass($1)`,
    [name],
  );
  const row = rows[0];
  if (!row) return 'missing';
  if (row.valid) return 'valid';
  return row.building ? 'building' : 'left invalid';
}
