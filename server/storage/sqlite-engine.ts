import { Kysely, sql, SqliteDialect } from 'kysely';
import { AppDatabase } from './app-database';
import type { AppSchema } from './app-schema';
import { sqliteDatabaseName } from './database-name';
import { SORT_FOLD_FUNCTION } from './sort-fold';
import type { EngineDialect, StorageEngine } from './storage-engine';

const SQLITE_DIALECT: EngineDialect = {
  // The column is COLLATE NOCASE: a plain comparison uses its unique index.
  usernameIs: (username) => sql<boolean>`username = ${username}`,
  tenantCreationOrder: sql`tenants.rowid`,
  recordFieldIs: (key, value) => sql<boolean>`json_extract(data, ${`$.${key}`}) = ${value}`,
  listSortKey: (column, kind) => {
    const value = `json_extract(data, '$.${column}')`;
    // Text folded (sort-fold.ts), then compared as bytes; numbers sort before any text ('').
    const expression = kind === 'text' ? `${SORT_FOLD_FUNCTION}(coalesce(${value}, ''))` : `coalesce(${value}, '')`;
    return { expression, fromRow: (key) => key as string | number, toSql: (key) => key };
  },
};

/**
 * The embedded engine: the SQLite file of AppDatabase (opened and migrated synchronously), queried through Kysely
 * on the same better-sqlite3 connection the session store and the sign-in counters use.
 */
export class SqliteEngine implements StorageEngine {
  readonly kind = 'sqlite';
  readonly displayName: string;
  readonly db: Kysely<AppSchema>;
  readonly dialect = SQLITE_DIALECT;
  private readonly ensuredIndexes = new Set<string>();

  constructor(readonly file: AppDatabase) {
    this.displayName = sqliteDatabaseName(file.db);
    this.db = new Kysely<AppSchema>({ dialect: new SqliteDialect({ database: file.db }) });
  }

  static open(path: string): SqliteEngine {
    return new SqliteEngine(AppDatabase.open(path));
  }

  /**
   * BEGIN IMMEDIATE takes the file's write lock first, so two processes doing read-then-write work never both read
   * "missing" and both write. better-sqlite3 answers synchronously, so the whole transaction runs within one turn of
   * the event loop: no other request's query lands inside it.
   */
  exclusive<T>(work: (db: Kysely<AppSchema>) => Promise<T>): Promise<T> {
    return this.db.connection().execute(async (connection) => {
      await sql`BEGIN IMMEDIATE`.execute(connection);
      try {
        const result = await work(connection);
        await sql`COMMIT`.execute(connection);
        return result;
      } catch (error) {
        if (this.file.db.inTransaction) await sql`ROLLBACK`.execute(connection);
        throw error;
      }
    });
  }

  changeStamp(): string {
    return this.file.turnChangeStamp();
  }

  noteWrite(): void {
    this.file.noteWrite();
  }

  /** SQLite's stamp is read once per event-loop turn (AppDatabase.turnChangeStamp), whatever the requests. */
  noteRequestStart(): void {}

  /** Opening migrated the file already: the steps it applied. */
  migrate(): Promise<readonly number[]> {
    return Promise.resolve(this.file.appliedSteps);
  }

  check(): Promise<void> {
    try {
      this.file.check();
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  ensureIndex(name: string, definition: string): Promise<void> {
    if (!this.ensuredIndexes.has(name)) {
      try {
        // Straight on the connection (no prepared statement): quick on the tables SQLite holds, and once per index.
        this.file.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${definition}`);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      this.ensuredIndexes.add(name);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.file.close();
    this.closed = true;
    return Promise.resolve();
  }

  closed = false;
}
