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
    applySteps: (settings, steps) => {
      const db = new Database(settings.kind === 'sqlite' ? settings.path : '');
      try {
        return Promise.resolve(migrate(db, steps));
      } catch (error) {
        return Promise.reject(error as Error);
      } finally {
        db.close();
      }
    },
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
    applySteps: async (settings, steps) => {
      const client = new Client({ connectionString: settings.kind === 'postgres' ? settings.url : '' });
      await client.connect();
      try {
        return await migratePostgres(client, steps);
      } finally {
        await client.end();
      }
    },
  },
];
