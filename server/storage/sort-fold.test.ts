/**
 * The sort key's fold, and that SQLite's function (registered by AppDatabase.open) and PostgreSQL's (written by
 * migration 11 from the same table) give exactly what the server computes for a search's prefix: were they to
 * disagree on one letter, a title with it would sort apart from its list and never be found by its start.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { sql } from 'kysely';
import { ENGINES } from '../../testing/server/engines-under-test';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { makeTempDir } from '../../testing/temp-dir';
import { MIGRATIONS, POSTGRES_MIGRATIONS } from './migrations';
import { openMigratedStorage } from './open-storage';
import { foldForSort, SORT_FOLD_FUNCTION } from './sort-fold';
import type { StorageEngine } from './storage-engine';

/** Every character of the ranges folded, and the characters around them, in one text. */
const EVERY_LETTER = Array.from({ length: 0x1f00 - 0x20 }, (_, index) => String.fromCharCode(0x20 + index))
  .filter((character) => !/[\p{Cs}\p{Cn}\p{Cc}]/u.test(character))
  .join('');

describe('the sort fold', () => {
  it('lower-cases, drops accents and spells the letters that do not decompose', () => {
    expect(foldForSort('Éclair')).toBe('eclair');
    expect(foldForSort('STRASSE Straße ẞ')).toBe('strasse strasse ss');
    expect(foldForSort('Øre Ærø Œuvre Þór Łódź')).toBe('ore aero oeuvre thor lodz');
    expect(foldForSort('МОСКВА Ёлка Ελλάδα')).toBe('москва елка ελλαδα');
    expect(foldForSort('Nguyễn Thị Minh Khai')).toBe('nguyen thi minh khai');
  });

  it('keeps every other character as it is', () => {
    expect(foldForSort('東京 नमस्ते 123 ½ € -_.')).toBe('東京 नमस्ते 123 ½ € -_.');
    expect(foldForSort('')).toBe('');
  });
});

/** What the engine's own function makes of `text`. */
async function foldedBy(engine: StorageEngine, text: string): Promise<string> {
  const { rows } = await sql<{ folded: string }>`SELECT ${sql.raw(SORT_FOLD_FUNCTION)}(${text}) AS folded`.execute(
    engine.db,
  );
  return rows[0]!.folded;
}

describe('the sort fold in SQLite', () => {
  it('is the server’s, letter for letter', async () => {
    const folder = makeTempDir('slots-sort-fold-');
    const engine = await openMigratedStorage({ kind: 'sqlite', path: path.join(folder.path, 'app.db') });
    try {
      expect(await foldedBy(engine, EVERY_LETTER)).toBe(foldForSort(EVERY_LETTER));
      expect(await foldedBy(engine, 'Éclair')).toBe('eclair');
    } finally {
      await engine.close();
      folder.remove();
    }
  });
});

describeWithPostgres()('the sort fold in PostgreSQL', () => {
  const postgres = usePostgresDatabases('sort_fold', { poolSize: 2, statementTimeoutMs: 5000 });

  it('is the server’s, letter for letter', async () => {
    const engine = await openMigratedStorage(await postgres.create());
    try {
      expect(await foldedBy(engine, EVERY_LETTER)).toBe(foldForSort(EVERY_LETTER));
      expect(await foldedBy(engine, 'Éclair')).toBe('eclair');
    } finally {
      await engine.close();
    }
  });
});

for (const engineUnderTest of ENGINES) {
  engineUnderTest.describeFor(`migration 11 on ${engineUnderTest.name}`, () => {
    beforeAll(() => engineUnderTest.setUp(), 60_000);
    afterAll(() => engineUnderTest.tearDown(), 30_000);

    it('drops the indexes of unfolded sort keys, which would only slow every write', async () => {
      const settings = await engineUnderTest.freshDatabase();
      const steps = settings.kind === 'sqlite' ? MIGRATIONS : POSTGRES_MIGRATIONS;
      await engineUnderTest.applySteps(settings, steps.slice(0, 10));
      // As a server before the fold made it on first use of the title sort.
      const title = Buffer.from('title').toString('hex');
      const old = `records_list_text_${title}`;
      const create = `CREATE INDEX ${old} ON records (tenant_id, resource, id)`;
      if (settings.kind === 'sqlite') {
        const db = new Database(settings.path);
        db.exec(create);
        db.close();
      } else {
        const client = new Client({ connectionString: settings.url });
        await client.connect();
        await client.query(create);
        await client.end();
      }
      const engine = await openMigratedStorage(settings);
      try {
        const indexes = async () => {
          const { rows } = await (
            settings.kind === 'sqlite'
              ? sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index'`
              : sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'records'`
          ).execute(engine.db);
          return rows.map((row) => row.name);
        };
        expect(await indexes()).not.toContain(old);
        expect(await indexes()).toContain('records_tenant_resource');
      } finally {
        await engine.close();
      }
    });
  });
}
