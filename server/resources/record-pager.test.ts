import path from 'node:path';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import type { AppSchema } from '../storage/app-schema';
import type { RecordPageQuery } from '../storage/record-page-query';
import { SqliteEngine } from '../storage/sqlite-engine';
import type { StorageEngine } from '../storage/storage-engine';
import { TenantStore } from '../tenants/tenant-store';
import { StoredRecordSource } from './stored-record-source';

/**
 * How a search or filter on a list sorted by a column reads SQLite, from the plans of the very statements a page and
 * its total run. FTS5 asked about one record (a rowid constraint, `=` in the plan's index string) still reads every
 * posting of the search's prefixes: a walk asking it record by record cost seconds at 100,000 records; a record's own
 * words, read by id from FTS5's content table, cost that record alone.
 */
describe('RecordPager on SQLite: searches sorted by a column', () => {
  let dir: TempDir;
  let engine: SqliteEngine;
  let statements: CompiledQuery[];
  /** The engine, its statements logged (the same connection). */
  let logged: StorageEngine;

  beforeAll(async () => {
    dir = makeTempDir('slots-record-pager-');
    engine = SqliteEngine.open(path.join(dir.path, 'app.db'));
    await new TenantStore(engine).save({ id: 'acme', name: 'Acme' });
    const records = new StoredRecordSource(engine);
    for (let index = 0; index < 60; index++) {
      await records.insert('acme', 'tickets', {
        title: `${index % 20 === 0 ? 'Zeppelin' : 'Plain'} ticket ${String(59 - index).padStart(2, '0')}`,
        label: 'T',
        status: index % 3 ? 'open' : 'closed',
        priority: index % 5,
        due: `2024-0${(index % 9) + 1}-1${index % 10}`,
      });
    }
    const db = new Kysely<AppSchema>({
      dialect: new SqliteDialect({ database: engine.file.db }),
      log: (event) => {
        statements.push(event.query);
      },
    });
    logged = Object.create(engine, { db: { value: db } }) as StorageEngine;
  });

  afterAll(async () => {
    await engine.close();
    dir.remove();
  });

  /**
   * The plan of each statement that matches the search (others, such as a range of days counted alone in its index,
   * read no word) of a first page, the page after it, the one before that and the list's total.
   */
  async function plansOf(source: StoredRecordSource, query: RecordPageQuery): Promise<string[][]> {
    statements = [];
    const first = await source.page('acme', 'tickets', query);
    if (!first.next) throw new Error('the list has a second page');
    const second = await source.page('acme', 'tickets', { ...query, after: first.next });
    if (!second.previous) throw new Error('the second page has a previous one');
    await source.page('acme', 'tickets', { ...query, before: second.previous });
    await source.countPage('acme', 'tickets', query, 1000);
    return statements
      .filter((statement) => /^select/i.test(statement.sql))
      .map((statement) =>
        (
          engine.file.db.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.parameters) as {
            detail: string;
          }[]
        ).map((step) => step.detail),
      )
      .filter((plan) => plan.some((step) => step.includes('record_words')));
  }

  const SEARCHES: Array<[string, RecordPageQuery]> = [
    ['a word, by title', { sort: { column: 'title', kind: 'text' }, descending: false, limit: 2, words: ['zeppelin'] }],
    [
      'a word and a range of days, by the day',
      {
        sort: { column: 'due', kind: 'text' },
        descending: true,
        limit: 2,
        words: ['zeppelin'],
        dayRanges: [{ key: 'due', from: '0001-01-01', to: '9999-12-31' }],
      },
    ],
    [
      'a word and a filter, by a number',
      {
        sort: { column: 'priority', kind: 'number' },
        descending: false,
        limit: 2,
        words: ['ticket'],
        filters: [{ key: 'status', value: 'closed', negated: false }],
      },
    ],
  ];

  it.each(SEARCHES)('reads few matches from the word index, never walking the column: %s', async (_name, query) => {
    const plans = await plansOf(new StoredRecordSource(logged), query);
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan.join('\n')).not.toMatch(/record_words .*INDEX \d+:=/);
      // Every statement starts from the word index: no walk of a sort index checking each record it reaches.
      expect(plan[0]).toMatch(/record_words VIRTUAL TABLE|CO-ROUTINE counted/);
      expect(plan.join('\n')).not.toMatch(/USING (COVERING )?INDEX records_list_/);
    }
  });

  it.each(SEARCHES)('walks the column for many matches, each record reached read by id: %s', async (_n, query) => {
    const plans = await plansOf(new StoredRecordSource(logged, { fewMatches: 0 }), query);
    const walks = plans.filter((plan) => plan.some((step) => /USING (COVERING )?INDEX records_list_/.test(step)));
    expect(walks.length).toBeGreaterThan(0);
    for (const plan of plans) expect(plan.join('\n')).not.toMatch(/record_words .*INDEX \d+:=/);
    // A page's walk reads each record's own words by id (the content table); a count of many, the list of matches
    // once (it reads many records: one list is cheaper than as many lookups).
    const byId = (plan: string[]) =>
      plan.some((step) => /record_words_content .*USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(step));
    for (const plan of walks) expect(byId(plan) || plan.includes('LIST SUBQUERY 1')).toBe(true);
    expect(walks.filter(byId).length).toBeGreaterThan(0);
  });
});
