/*
 * Above 300 lines for one reason: a keyset page is one statement, built for every sort key, search and range of
 * days on either engine, and its bounded count walks the same way; split, the parts of one query would be apart.
 */
import { sql, type Expression, type RawBuilder, type Selectable } from 'kysely';
import type { ResourceRecord } from '../../shared';
import type { RecordsTable } from '../storage/app-schema';
import { StampedCache } from '../storage/stamped-cache';
import type { ListSortKey, StorageEngine } from '../storage/storage-engine';
import { FIELD_NAME_PATTERN } from './field';
import type {
  RecordDayRangeCondition,
  RecordPage,
  RecordPageQuery,
  RecordPosition,
  RecordSortKey,
} from '../storage/record-page-query';
import { recordWordIndexFor, scopeWord, valueWord, type RecordWordIndex, type WordCondition } from './record-words';

/** A row of `records`, as read from the table or from its rows matching a search (see RecordPager.fetch). */
type RecordsRow = Selectable<RecordsTable>;

interface PageRow {
  id: number;
  data: string;
  /** The record's times (RecordTimes), 0 in a count's rows. */
  created_at: number;
  updated_at: number;
  sort_key: unknown;
}

type Side = 'forward' | 'backward';

/**
 * How a list filtered by a range of days finds its records. `index`: the range is read in the day field's index
 * (the records of the range side by side), each then checked for the words and filters and sorted as the list asks:
 * cheap when the range holds few records. `check`: the list walks as without the range (by id, the word index or
 * another column), checking each record it reaches for its day: cheap when many records are in the range.
 */
type DayWalk = 'index' | 'check';

/** A range holding at most this many records is read in its day index (DayWalk `index`). */
export const FEW_DAYS_RECORDS = 1000;

/**
 * A search or filter matching at most this many records of the resource is listed from the word index (see
 * RecordPager.fetch): its matches read and sorted, so a rare word costs its matches, not the sorted column's walk.
 */
export const FEW_MATCHES = 1000;

/** The first and last days a date field can hold (isCalendarDay): the open ends of a range of days. */
const FIRST_DAY = '0001-01-01';
const LAST_DAY = '9999-12-31';

/** The sort of one page: by id, or by a field's key (its SQL expression as the engine writes it). */
type PageSort = { byId: true } | { byId: false; key: ListSortKey; expression: RawBuilder<unknown> };

/**
 * Keyset pages of the `records` table (see RecordSource.page), on either engine. Each sort key is the engine's SQL
 * expression (StorageEngine.dialect.listSortKey) with an index on (tenant_id, resource, expression, id), made the
 * first time a key is used; the expression is written into the statements exactly as in the index, so the planner
 * uses it. Column names are checked against FIELD_NAME_PATTERN before they reach any SQL.
 */
export class RecordPager {
  private readonly words: RecordWordIndex;
  /**
   * Bounded counts (a list's total, a range of days' size for its walk), kept while the data stays the same (the
   * engine's change stamp: any committed write of a record, by this process or another, drops them all). A count
   * does not depend on the cursor, so every page of a list and every reload asks the same one: at 100,000 records
   * it walks up to `bound + 1` index entries, which now happens once per list and change, not once per page.
   */
  private readonly counts: StampedCache<string, number>;

  constructor(
    private readonly engine: StorageEngine,
    private readonly toRecord: (row: {
      id: number;
      data: string;
      created_at: number;
      updated_at: number;
    }) => ResourceRecord,
    /** Tests lower it to walk small ranges of days as large ones are. */
    private readonly fewDaysRecords = FEW_DAYS_RECORDS,
    /** Tests lower it to walk the sorted column for few matches as for many. */
    private readonly fewMatches = FEW_MATCHES,
  ) {
    this.words = recordWordIndexFor(engine.kind);
    this.counts = new StampedCache(() => engine.changeStamp());
  }

  /**
   * How many records the list of `query` holds (its search, not its cursor), exactly up to `bound`, else
   * `bound + 1`: the same walk as a page, stopped after `bound + 1` entries, so never a scan of the table.
   */
  count(tenant: string, resource: string, query: RecordPageQuery, bound: number): Promise<number> {
    // What the count depends on: not the cursor, the page's size, the direction nor relevance (the same records).
    const { sort, prefix, words, filters, dayRanges } = query;
    const days = dayRanges?.length === 1 ? dayRanges[0] : undefined;
    if (days && prefix === undefined && wordCondition(query) === undefined) {
      // A range of days alone: the very walk that chooses how its pages go (dayWalk), shared with it.
      return this.rangeSize(tenant, resource, days, bound + 1);
    }
    const key = JSON.stringify(['list', tenant, resource, bound, sort, prefix, words, filters, dayRanges]);
    return this.counts.get(key, () => this.countNow(tenant, resource, query, bound));
  }

  private async countNow(tenant: string, resource: string, query: RecordPageQuery, bound: number): Promise<number> {
    // The order does not change a count: a filtered list is counted in the word index, by id, whatever its sort.
    const byWords = wordCondition(query) !== undefined && query.prefix === undefined;
    // A range of days is counted in its day's index, which holds the range's records side by side (bound + 1 at
    // most), unless words or filters come with a range too wide for that: the word index then drives. Wide is
    // the range's size alone (rangeWalk): a list sorted by the day walks its index (dayWalk), which a count by the
    // word index need not, so as not to read all of a wide range for a few matches.
    const days = query.prefix === undefined ? query.dayRanges?.[0] : undefined;
    const dayWalk =
      days && (!byWords || (await this.rangeWalk(tenant, resource, days)) === 'index') ? 'index' : 'check';
    const sort = await this.indexedSort(
      days && dayWalk === 'index' ? { column: days.key, kind: 'text' } : byWords ? { column: 'id' } : query.sort,
    );
    const { after: _after, before: _before, ...list } = query;
    const rows = await this.fetch(
      tenant,
      resource,
      sort,
      { ...list, descending: false },
      'forward',
      undefined,
      bound + 1,
      { idsOnly: true, dayWalk },
    );
    return rows.length;
  }

  async page(tenant: string, resource: string, query: RecordPageQuery): Promise<RecordPage> {
    const sort = await this.indexedSort(query.sort);
    const dayWalk = await this.dayWalk(tenant, resource, query);
    const fetch = (side: Side, from: RecordPosition | undefined, limit: number): Promise<PageRow[]> =>
      this.fetch(tenant, resource, sort, query, side, from, limit, { dayWalk });
    const positionOf = (row: PageRow): RecordPosition =>
      sort.byId ? { id: row.id } : { key: sort.key.fromRow(row.sort_key), id: row.id };

    if (query.before) {
      const rows = await fetch('backward', query.before, query.limit + 1);
      const shown = rows.slice(0, query.limit).reverse();
      const first = shown[0];
      const last = shown.at(-1);
      return {
        records: shown.map(this.toRecord),
        ...(rows.length > query.limit && first ? { previous: positionOf(first) } : {}),
        ...(last && (await fetch('forward', positionOf(last), 1)).length > 0 ? { next: positionOf(last) } : {}),
      };
    }
    const rows = await fetch('forward', query.after, query.limit + 1);
    const shown = rows.slice(0, query.limit);
    const first = shown[0];
    const last = shown.at(-1);
    return {
      records: shown.map(this.toRecord),
      ...(rows.length > query.limit && last ? { next: positionOf(last) } : {}),
      ...(query.after && first && (await fetch('backward', positionOf(first), 1)).length > 0
        ? { previous: positionOf(first) }
        : {}),
    };
  }

  /**
   * How a list with a range of days walks (see DayWalk): in the day's index when the list is sorted by that day or
   * when the range, counted alone in that index, holds at most `fewDaysRecords` records; otherwise by its own walk.
   */
  private async dayWalk(tenant: string, resource: string, query: RecordPageQuery): Promise<DayWalk> {
    const days = query.dayRanges?.[0];
    if (!days) return 'check';
    if ('kind' in query.sort && query.sort.column === days.key) return 'index';
    return this.rangeWalk(tenant, resource, days);
  }

  /** `index` when the range of days holds at most `fewDaysRecords` records, else `check`. */
  private async rangeWalk(tenant: string, resource: string, days: RecordDayRangeCondition): Promise<DayWalk> {
    return (await this.rangeSize(tenant, resource, days, this.fewDaysRecords + 1)) <= this.fewDaysRecords
      ? 'index'
      : 'check';
  }

  /** How many records the range of days holds, counted in its day's index up to `limit` (kept as `counts` says). */
  private rangeSize(tenant: string, resource: string, days: RecordDayRangeCondition, limit: number): Promise<number> {
    const key = JSON.stringify(['days', tenant, resource, days.key, days.from, days.to, limit]);
    return this.counts.get(key, async () => {
      const sortKey = { column: days.key, kind: 'text' } as const;
      const inRange = await this.fetch(
        tenant,
        resource,
        await this.indexedSort(sortKey),
        { sort: sortKey, descending: false, limit: 1, dayRanges: [days] },
        'forward',
        undefined,
        limit,
        { idsOnly: true, dayWalk: 'index' },
      );
      return inRange.length;
    });
  }

  /**
   * How many records of the resource `condition` matches in the word index alone, up to `fewMatches + 1` (kept as
   * `counts` says): whether a list is read from its matches (see fetch).
   */
  private matchCount(tenant: string, resource: string, condition: WordCondition): Promise<number> {
    const limit = this.fewMatches + 1;
    const key = JSON.stringify(['matches', tenant, resource, condition, limit]);
    return this.counts.get(key, async () => {
      const matches = this.words.matches(scopeWord(tenant, resource), condition);
      const found = await this.counted(
        sql`SELECT ${this.words.recordId} FROM record_words WHERE ${matches} LIMIT ${limit}`,
      );
      return found.length;
    });
  }

  /** The sort key's expression, its index made on first use. */
  private async indexedSort(sort: RecordSortKey): Promise<PageSort> {
    if (!('kind' in sort)) return { byId: true };
    if (!FIELD_NAME_PATTERN.test(sort.column)) throw new Error(`Not a record key: ${JSON.stringify(sort.column)}`);
    const key = this.engine.dialect.listSortKey(sort.column, sort.kind);
    // Index names ignore case in SQLite while JSON keys do not: the hex of the column keeps "Name" and "name" apart.
    // Text keys are folded (sort-fold.ts): `folded`, as the unfolded `text_` indexes are dropped by migration 11.
    const kind = sort.kind === 'text' ? 'folded' : sort.kind;
    const name = `records_list_${kind}_${Buffer.from(sort.column).toString('hex')}`;
    await this.engine.ensureIndex(name, `records (tenant_id, resource, (${key.expression}), id)`);
    return { byId: false, key, expression: sql.raw(key.expression) };
  }

  /**
   * One walk through the index from `from` (exclusive), in two index ranges so that a page reads about `limit`
   * entries however many records share the cursor's key: first the rows tied with the cursor (`key = k AND id > n`,
   * by id), then the rows past its key (`key > k`, by key and id), concatenated. A single condition such as
   * `key >= k AND (key > k OR id > n)` would start the range at the first row tied with the cursor and read every
   * tie again on each page; a row-value comparison `(key, id) > (?, ?)` is no range on an expression index in
   * SQLite. The cursor's key lies within the search's range (the router refuses a cursor from another search), so
   * it replaces the bound on its side.
   */
  private async fetch(
    tenant: string,
    resource: string,
    sort: PageSort,
    query: RecordPageQuery,
    side: Side,
    from: RecordPosition | undefined,
    limit: number,
    { idsOnly = false, dayWalk = 'check' }: { idsOnly?: boolean; dayWalk?: DayWalk } = {},
  ): Promise<PageRow[]> {
    // Forward in a descending list walks the index downwards, as does backward in an ascending one.
    const downwards = query.descending !== (side === 'backward');
    const direction = sql.raw(downwards ? 'DESC' : 'ASC');
    const after = sql.raw(downwards ? '<' : '>');
    const condition = wordCondition(query);
    const days = this.dayRangeCondition(query, dayWalk);
    if (condition && sort.byId && dayWalk === 'check') {
      // Driven by the word index, in record id order: FTS5 and GIN hand out matches by id. CROSS JOIN makes SQLite
      // walk the word index first (left to right) and look each match up in records by id; left to its own choice it
      // walked every record of the resource and asked FTS5 about each. PostgreSQL plans it as any join.
      const { recordId } = this.words;
      const matches = this.words.matches(scopeWord(tenant, resource), condition);
      if (idsOnly && !days) {
        // A count: the word index alone (the scope word keeps it to the tenant and resource), no record read.
        return this.counted(sql`SELECT ${recordId} FROM record_words WHERE ${matches} LIMIT ${limit}`);
      }
      const joined = sql<PageRow>`
        SELECT records.id, records.data, records.created_at, records.updated_at, records.id AS sort_key
          FROM record_words CROSS JOIN records
         WHERE records.id = ${recordId} AND ${matches}
           AND records.tenant_id = ${tenant} AND records.resource = ${resource}
           ${days ? sql`AND ${days}` : sql``}`;
      if (idsOnly) return this.counted(sql`${joined} LIMIT ${limit}`);
      const result = await sql<PageRow>`${joined}
           ${from ? sql`AND ${recordId} ${after} ${from.id}` : sql``}
         ORDER BY ${recordId} ${direction}
         LIMIT ${limit}`.execute(this.engine.db);
      return result.rows;
    }
    // Few matches (counted in the word index alone): they are the rows read, looked up by id and sorted here,
    // whatever the sort, so a rare word costs its matches and not a walk of the sorted column. Many: the walk goes as
    // without a search or filter, each record it reaches checked against them. FTS5, asked about one record, reads
    // every posting of a word's prefix (seconds a page at 100,000 records): a page's walk reads each record's own
    // words instead (RecordWordIndex.holds, by id), and a count, which reaches many, their list of matches once per
    // statement (`+` keeps that list from driving the walk instead). Filters alone are still asked of FTS5 record by
    // record: a value word is no prefix, and FTS5 seeks the record in its postings.
    const { recordId } = this.words;
    const matches = condition && this.words.matches(scopeWord(tenant, resource), condition);
    const matchesFirst =
      condition !== undefined && (await this.matchCount(tenant, resource, condition)) <= this.fewMatches;
    const rows = matchesFirst
      ? sql<RecordsRow>`(SELECT records.* FROM record_words CROSS JOIN records
          WHERE records.id = ${recordId} AND ${matches})`
      : sql<RecordsRow>`records`;
    let select = this.engine.db
      .selectFrom(rows.as('records'))
      .select('id')
      // A count needs no data: the walk then stays in the index.
      .select(idsOnly ? sql<string>`''`.as('data') : sql<string>`data`.as('data'))
      .select(idsOnly ? sql<number>`0`.as('created_at') : sql<number>`created_at`.as('created_at'))
      .select(idsOnly ? sql<number>`0`.as('updated_at') : sql<number>`updated_at`.as('updated_at'))
      // A count needs no key either: the index alone answers it (SQLite then reads no row of the table).
      .select(sort.byId || idsOnly ? sql<unknown>`id`.as('sort_key') : sql<unknown>`${sort.expression}`.as('sort_key'))
      .where('tenant_id', '=', tenant)
      .where('resource', '=', resource);
    if (matches && !matchesFirst) {
      select = select.where(
        condition.prefixes.length === 0
          ? sql<boolean>`EXISTS (SELECT 1 FROM record_words WHERE ${recordId} = records.id AND ${matches})`
          : idsOnly
            ? sql<boolean>`+records.id IN (SELECT ${recordId} FROM record_words WHERE ${matches})`
            : this.words.holds(sql`records.id`, condition),
      );
    }
    if (days) select = select.where(days);
    if (sort.byId) {
      const byId = (from ? select.where(sql<boolean>`id ${after} ${from.id}`) : select)
        .orderBy(sql`id ${direction}`)
        .limit(limit);
      return idsOnly ? this.counted(byId) : byId.execute();
    }
    const { expression, key } = sort;
    let tied: PageRow[] = [];
    if (from) {
      tied = await select
        .where(sql<boolean>`${expression} = ${key.toSql(from.key ?? '')}`)
        .where(sql<boolean>`id ${after} ${from.id}`)
        .orderBy(sql`id ${direction}`)
        .limit(limit)
        .execute();
      if (tied.length >= limit) return tied;
    }
    const upperBound = query.prefix === undefined ? undefined : prefixUpperBound(query.prefix);
    let past = select;
    if (from) past = past.where(sql<boolean>`${expression} ${after} ${key.toSql(from.key ?? '')}`);
    if (query.prefix !== undefined && !(from && !downwards)) {
      past = past.where(sql<boolean>`${expression} >= ${query.prefix}`);
    }
    if (upperBound !== undefined && !(from && downwards))
      past = past.where(sql<boolean>`${expression} < ${upperBound}`);
    const ordered = past
      .orderBy(sql`${expression} ${direction}`)
      .orderBy(sql`id ${direction}`)
      .limit(limit - tied.length);
    // A count has no cursor, so no tied rows: the walk past the start is all of it.
    if (idsOnly) return this.counted(ordered);
    return [...tied, ...(await ordered.execute())];
  }

  /**
   * "Each date field of `query.dayRanges` holds a day in its range" (SQL), or undefined without ranges. The day is
   * compared through the field's text sort key, the very expression of the field's sort index, so that an `index`
   * walk reads only the range there; a `check` walk compares it in a form no index has. A missing day is '' there,
   * below every day, and an open end is the first or last day a date field can hold.
   */
  private dayRangeCondition(query: RecordPageQuery, walk: DayWalk): RawBuilder<boolean> | undefined {
    const ranges = query.dayRanges ?? [];
    if (ranges.length === 0) return undefined;
    return sql<boolean>`(${sql.join(
      ranges.map((range) => {
        if (!FIELD_NAME_PATTERN.test(range.key)) throw new Error(`Not a record key: ${JSON.stringify(range.key)}`);
        const { expression } = this.engine.dialect.listSortKey(range.key, 'text');
        // `|| ''` changes no day but is not the index's expression: no planner then reads the whole range in it.
        const day = sql.raw(walk === 'index' ? expression : `(${expression} || '')`);
        return sql`${day} BETWEEN ${range.from ?? FIRST_DAY} AND ${range.to ?? LAST_DAY}`;
      }),
      sql` AND `,
    )})`;
  }

  /**
   * `count(*)` of a query's rows, counted by the database rather than sent over: as that many placeholder rows, so
   * a count walks exactly the same query as a page.
   */
  private async counted(query: Expression<unknown>): Promise<PageRow[]> {
    const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM (${query}) AS counted`.execute(
      this.engine.db,
    );
    return Array.from({ length: Number(rows[0]?.n ?? 0) }, () => ({
      id: 0,
      data: '',
      created_at: 0,
      updated_at: 0,
      sort_key: 0,
    }));
  }
}

/**
 * The least string above every string that starts with `prefix`: its last code point raised by one (both engines
 * compare the key as UTF-8 bytes, which follow code point order). Undefined when no such string exists (only
 * U+10FFFF).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const points = [...prefix].map((point) => point.codePointAt(0) ?? 0);
  while (points.length > 0) {
    const last = points.pop() ?? 0;
    let next = last + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000; // surrogates are not characters
    if (next <= 0x10ffff) return String.fromCodePoint(...points, next);
  }
  return undefined;
}

/** What the word index must match for `query`, or undefined when the list has neither words nor filters. */
function wordCondition(query: RecordPageQuery): WordCondition | undefined {
  const filters = query.filters ?? [];
  if (!query.words && filters.length === 0) return undefined;
  return {
    prefixes: query.words ?? [],
    required: filters.filter((filter) => !filter.negated).map((filter) => valueWord(filter.key, filter.value)),
    excluded: filters.filter((filter) => filter.negated).map((filter) => valueWord(filter.key, filter.value)),
  };
}
