import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { migrate } from '../../server/storage/migrate';
import type { Migration } from '../../server/storage/migrations';
import type { StorageSettings } from '../../server/storage/open-storage';
import { migratePostgres } from '../../server/storage/postgres-migrate';
import { makeTempDir, type TempDir } from '../temp-dir';
import { describeWithPostgres, PostgresServer } from './postgres-server';

/**
 * The storage engines a contract runs its cases against: a SQLite file in a temporary folder and a real PostgreSQL
 * (one server per suite, a fresh database per case).
 */
export interface EngineUnderTest {
  name: string;
  describeFor: (name: string, suite: () => void) => void;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** Settings of a new, empty database. */
  freshDatabase(): Promise<StorageSettings>;
  /** Runs the engine's migration function with these steps; resolves to the versions it applied. */
  applySteps(settings: StorageSettings, steps: readonly Migration[]): Promise<number[]>;
  /** Runs SQL on the database as another application would, outside the server's engine. */
  execute(settings: StorageSettings, statement: string): Promise<void>;
  /** The names of the tables the database holds, sorted. */
  tablesIn(settings: StorageSettings): Promise<string[]>;
}

/** A connection of its own to a SQLite file, closed once `use` is done with it. */
function withSqlite<T>(settings: StorageSettings, use: (db: Database.Database) => T): Promise<T> {
  const db = new Database(settings.kind === 'sqlite' ? settings.path : '');
  try {
    return Promise.resolve(use(db));
  } catch (error) {
    return Promise.reject(error as Error);
  } finally {
    db.close();
  }
}

/** A client of its own to a PostgreSQL database, ended once `use` is done with it. */
async function withPostgres<T>(settings: StorageSettings, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: settings.kind === 'postgres' ? settings.url : '' });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

let folder: TempDir;
let postgres: PostgresServer | undefined;
let databases = 0;

export const ENGINES: EngineUnderTest[] = [
  {
    name: 'SQLite',
    describeFor: describe,
    setUp: () => {
      folder = makeTempDir('slots-contract-');
      return Promise.resolve();
    },
    tearDown: () => {
      folder.remove();
      return Promise.resolve();
    },
    freshDatabase: () => Promise.resolve({ kind: 'sqlite', path: path.join(folder.path, `db${++databases}.db`) }),
    applySteps: (settings, steps) => withSqlite(settings, (db) => migrate(db, steps)),
    execute: (settings, statement) => withSqlite(settings, (db) => void db.exec(statement)),
    tablesIn: (settings) =>
      withSqlite(settings, (db) =>
        db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all(),
      ),
  },
  {
    name: 'PostgreSQL',
    describeFor: describeWithPostgres(),
    setUp: async () => {
      postgres = await PostgresServer.start();
    },
    tearDown: async () => {
      await postgres?.remove();
    },
    freshDatabase: async () => ({
      kind: 'postgres',
      url: await (postgres as PostgresServer).createDatabase(`contract_${++databases}`),
      poolSize: 4,
      statementTimeoutMs: 5000,
    }),
    applySteps: (settings, steps) => withPostgres(settings, (client) => migratePostgres(client, steps)),
    execute: (settings, statement) => withPostgres(settings, async (client) => void (await client.query(statement))),
    tablesIn: (settings) =>
      withPostgres(settings, async (client) => {
        const { rows } = await client.query<{ name: string }>(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1',
        );
        return rows.map((row) => row.name);
      }),
  },
];
