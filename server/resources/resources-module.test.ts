import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { SqliteEngine } from '../storage/sqlite-engine';
import { TenantStore } from '../tenants/tenant-store';
import { WORDS_VERSION } from './record-words';
import { ResourcesModule } from './resources-module';
import { StartProgress } from '../process/start-progress';

let dir: TempDir;
let file: string;
beforeEach(() => {
  dir = makeTempDir('slots-resources-module-');
  file = path.join(dir.path, 'app.db');
});
afterEach(() => dir.remove());

/** The resources module of a start on `storage`, logging to `logger`. */
function resourcesModule(storage: SqliteEngine, logger: pino.Logger): ResourcesModule {
  return new ResourcesModule({
    storage,
    tenants: new TenantStore(storage),
    logger,
    settings: { bodyLimitBytes: 100_000 },
  });
}

/** The record source of `storage`, to write what a start will find. */
function recordsOf(storage: SqliteEngine) {
  return resourcesModule(storage, pino({ level: 'silent' })).records;
}

/** Loads the resources as a start does, on the file, with `before` run on it first; returns what it logged. */
async function start(before?: (engine: SqliteEngine) => Promise<void>): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const storage = SqliteEngine.open(file);
  try {
    await new TenantStore(storage).save({ id: 'acme', name: 'Acme' });
    await before?.(storage);
    await resourcesModule(storage, logger).load();
  } finally {
    await storage.close();
  }
  return lines;
}

/**
 * The first start of a release that splits words anew indexes every record again before it listens: 29 s for
 * 100,000 records on a loaded machine, with /healthz refused, used to pass in silence (an operator thought it hung).
 */
describe("ResourcesModule's start", () => {
  it('says before and after when it indexes the search words again, and why; nothing when it has nothing to do', async () => {
    const lines = await start(async (engine) => {
      const records = recordsOf(engine);
      for (const title of ['García', 'Peña', 'Müller']) await records.insert('acme', 'articles', { title });
      // As a database indexed by the release before, whose words were split differently.
      await sql`UPDATE record_words_state SET words_version = ${WORDS_VERSION - 1}`.execute(engine.db);
    });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        records: 3,
        wordsVersion: { from: WORDS_VERSION - 1, to: WORDS_VERSION },
        msg: `indexing the search words of 3 records (words version ${WORDS_VERSION - 1} → ${WORDS_VERSION})`,
      }),
      expect.objectContaining({
        level: 30,
        records: 3,
        tookMs: expect.any(Number) as number,
        msg: expect.stringMatching(/^search words indexed: 3 records in \d+\.\d s$/) as string,
      }),
    ]);
    expect(await start()).toEqual([]);
  });

  it('says so too for records written without words (a database older than the word index)', async () => {
    const lines = await start(async (engine) => {
      const records = recordsOf(engine);
      await records.insert('acme', 'articles', { title: 'Early bird' });
      await records.insert('acme', 'articles', { title: 'Late bird' });
      await sql`DELETE FROM record_words`.execute(engine.db);
      await sql`UPDATE record_words_state SET words_version = ${WORDS_VERSION}`.execute(engine.db);
    });
    expect(lines.map((line) => line.msg)).toEqual([
      'indexing the search words of 2 records (records without words)',
      expect.stringMatching(/^search words indexed: 2 records in /) as string,
    ]);
  });
});

describe("ResourcesModule's start, stopped while it indexes", () => {
  it('stops once a batch has committed (SQLite lets the stop in between), and the next start indexes the rest', async () => {
    const storage = SqliteEngine.open(file);
    try {
      await new TenantStore(storage).save({ id: 'acme', name: 'Acme' });
      const records = recordsOf(storage);
      for (let n = 0; n < 1200; n++) await records.insert('acme', 'articles', { title: `Article ${n}` });
      // As records written before the word index existed.
      await sql`DELETE FROM record_words`.execute(storage.db);
      const startup = new StartProgress();
      const stopped = new Error('stopped by the test');
      // As a signal does: it comes in a later turn of the event loop than the indexing's announcement.
      startup.onLongStart(() => void setImmediate(() => startup.stop(stopped)));
      const module = new ResourcesModule({
        storage,
        tenants: new TenantStore(storage),
        logger: pino({ level: 'silent' }),
        settings: { bodyLimitBytes: 100_000 },
        startup,
      });
      await expect(module.load()).rejects.toBe(stopped);
      const withWords = async () =>
        Number((await sql<{ n: number }>`SELECT count(*) AS n FROM record_words`.execute(storage.db)).rows[0]?.n);
      // The first batch, committed whole; no other.
      expect(await withWords()).toBe(500);
      await resourcesModule(storage, pino({ level: 'silent' })).load();
      expect(await withWords()).toBe(1200);
    } finally {
      await storage.close();
    }
  });
});
