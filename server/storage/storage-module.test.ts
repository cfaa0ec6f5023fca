import path from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';
import { StorageModule } from './storage-module';

const LAST = MIGRATIONS.at(-1)!.version;

let dir: TempDir;
let file: string;
beforeEach(() => {
  dir = makeTempDir('slots-storage-module-');
  file = path.join(dir.path, 'app.db');
});
afterEach(() => dir.remove());

/** Opens the storage as a start does, and returns what it logged. */
async function start(): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const storage = new StorageModule({ kind: 'sqlite', path: file }, logger);
  try {
    await storage.load();
  } finally {
    await storage.close();
  }
  return lines;
}

describe("StorageModule's start", () => {
  it('logs the schema it created on a new database, and nothing on the next start', async () => {
    expect(await start()).toEqual([
      expect.objectContaining({ msg: 'database schema created', from: 0, to: LAST, steps: MIGRATIONS.length }),
    ]);
    expect(await start()).toEqual([]);
  });

  it('logs the steps an upgrade applied: an operator sees the schema changed, and from what', async () => {
    const db = new Database(file);
    migrate(db, MIGRATIONS.slice(0, -2));
    db.close();
    expect(await start()).toEqual([
      expect.objectContaining({ level: 30, msg: 'database schema migrated', from: LAST - 2, to: LAST, steps: 2 }),
    ]);
  });
});
