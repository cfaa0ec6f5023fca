import type { Expression, Kysely, RawBuilder, SqlBool } from 'kysely';
import type { AppSchema } from './app-schema';

/** Which database holds the server's data: the embedded SQLite file, or a PostgreSQL server shared by many hosts. */
export type StorageKind = 'sqlite' | 'postgres';

/**
 * One database behind the stores (users, tenants, records): a Kysely instance for queries both engines run, and
 * the few things that differ between them. The stores are written once against this, so SQLite and PostgreSQL
 * serve the same schema with the same behaviour.
 */
export interface StorageEngine {
  readonly kind: StorageKind;
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
  /** Brings the schema up to date (a no-op when opening did it already). */
  migrate(): Promise<void>;
  /** Rejects when the database does not answer. */
  check(): Promise<void>;
  /** Closes the connections (the file, or the pool). Idempotent. */
  close(): Promise<void>;
}

export interface EngineDialect {
  /** Usernames compare regardless of case. */
  usernameIs(username: string): Expression<SqlBool>;
  /** Tenants in the order they were created. */
  readonly tenantCreationOrder: RawBuilder<unknown>;
  /** The record's JSON data has `key` equal to `value` (same JSON type and value). */
  recordFieldIs(key: string, value: number | string): Expression<SqlBool>;
}
