import type { Expression, Kysely, RawBuilder, SqlBool } from 'kysely';
import type { SortKeyKind } from './record-page-query';
import type { AppSchema } from './app-schema';
import type { AdvisoryLockWait } from './advisory-lock';
import type { MigrationWatch } from './postgres-migrate';

/** Which database holds the server's data: the embedded SQLite file, or a PostgreSQL server shared by many hosts. */
export type StorageKind = 'sqlite' | 'postgres';

/**
 * One database behind the stores (users, tenants, records): a Kysely instance for queries both engines run, and
 * the few things that differ between them. The stores are written once against this, so SQLite and PostgreSQL
 * serve the same schema with the same behaviour.
 */
export interface StorageEngine {
  readonly kind: StorageKind;
  /**
   * The database as the operator knows it, for log lines (database-name.ts): `SQLite /data/app.db`,
   * `PostgreSQL "slots" on db.internal:5432`; never the password.
   */
  readonly displayName: string;
  readonly db: Kysely<AppSchema>;
  /** The SQL that differs between the engines. */
  readonly dialect: EngineDialect;
  /**
   * Runs `work` in a transaction that no other writer of this database (any process, any host) runs alongside:
   * SQLite's BEGIN IMMEDIATE, PostgreSQL's transaction-scoped advisory lock. For read-then-write work that must not
   * interleave, such as seeding or creating-if-missing. `work` must only query the database: on SQLite the
   * connection is shared by the whole process, so nothing else may be awaited inside.
   */
  exclusive<T>(work: (db: Kysely<AppSchema>) => Promise<T>): Promise<T>;
  /**
   * Moves whenever users, tenants, memberships or records may have changed, in this process or another (another
   * instance, another host, the CLI). Caches of reads on every request (StampedCache) are valid while it stays.
   */
  changeStamp(): string | Promise<string>;
  /** Call after committing a change of users, tenants, memberships or records. */
  noteWrite(): void;
  /**
   * Call when a request starts (the app does, first thing): a change stamp read before it must not serve it. Only
   * PostgreSQL's stamp needs it; SQLite's follows the event-loop turn.
   */
  noteRequestStart(): void;
  /**
   * Brings the schema up to date (SQLite: opening did it already). Resolves to the steps applied, by this call or by
   * the opening, none when the schema was up to date (or another instance brought it up to date first). `lockWait`
   * hears when another instance holds PostgreSQL's migration lock and of the steps about to be applied (SQLite:
   * never), and its signal stops the migration at a safe point (postgres-migrate.ts).
   */
  migrate(lockWait?: MigrationWatch): Promise<readonly number[]>;
  /**
   * PostgreSQL only (one SQLite file is one host's): runs `work` while no other host runs work under the same `key`,
   * waiting for it without a deadline (`lockWait` hears of the wait), so that hosts started together do a start-up
   * task once. `application` names the waiting connection for another host's line about its wait.
   */
  whileLocked?<T>(key: number, application: string, work: () => Promise<T>, lockWait?: AdvisoryLockWait): Promise<T>;
  /** Rejects when the database does not answer. */
  check(): Promise<void>;
  /**
   * Makes sure the index `name` exists (`definition`: what follows ON, e.g. `records (tenant_id, (expr), id)`). SQLite
   * creates it at once; PostgreSQL builds it CONCURRENTLY in the background, so writes go on meanwhile and queries
   * use it once it is there.
   */
  ensureIndex(name: string, definition: string): Promise<void>;
  /** Closes the connections (the file, or the pool). Idempotent. */
  close(): Promise<void>;
  /**
   * Whether close() has finished: a shutdown that stops waiting for the stores (a frozen PostgreSQL holds its pool's
   * end) names those still closing.
   */
  readonly closed: boolean;
}

export interface EngineDialect {
  /** Usernames compare regardless of case. */
  usernameIs(username: string): Expression<SqlBool>;
  /** Tenants in the order they were created. */
  readonly tenantCreationOrder: RawBuilder<unknown>;
  /** The record's JSON data has `key` equal to `value` (same JSON type and value). */
  recordFieldIs(key: string, value: number | string): Expression<SqlBool>;
  /**
   * The sort key of record lists by a field (`column` already checked against FIELD_NAME_PATTERN): `text` is the value
   * with ASCII letters lower-cased, compared as bytes; `number` the value; a missing value is '' in both, after every
   * number and before every other text.
   */
  listSortKey(column: string, kind: SortKeyKind): ListSortKey;
}

/** A list sort key as one engine computes it. */
export interface ListSortKey {
  /** SQL of the key, written the same in the index and in every query, so the planner matches them. */
  readonly expression: string;
  /** The key as a row holds it -> as lists and cursors carry it (string or number; '' for missing). */
  fromRow(value: unknown): string | number;
  /** A key from a cursor or a search -> the value to compare `expression` with. */
  toSql(key: string | number): string | number;
}
