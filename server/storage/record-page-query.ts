import type { ResourceRecord } from '../../shared';

/**
 * How a list column's values are ordered and matched: `text` by the value with ASCII letters lower-cased (so "b"
 * and "B" sort together and a search ignores their case), `number` by the value as stored. A record without the
 * value sorts as '' in both: after every number, before every other text.
 */
export type SortKeyKind = 'text' | 'number';

/** What a list is sorted by: the record id, or a field kept in the record's data. */
export type RecordSortKey = { column: 'id' } | { column: string; kind: SortKeyKind };

/** A record's place in a sort: its sort key value (absent when sorting by id) and its id, the tie-breaker. */
export interface RecordPosition {
  key?: string | number;
  id: number;
}

/** One page of a list, as the record source is asked for it; every part already checked by the router. */
export interface RecordPageQuery {
  sort: RecordSortKey;
  descending: boolean;
  /** Records per page, at least 1. */
  limit: number;
  /** Keep the records whose (text) sort key starts with this; already folded like the key (foldForSort). */
  prefix?: string;
  /**
   * Keep the records having, for each of these, a word that starts with it (already split by splitWords). With any
   * sort: by id the word index yields its matches in order; by a column, RecordPager reads and sorts few matches or
   * walks the column for many.
   */
  words?: readonly string[];
  /**
   * Order by relevance to `words` instead of `sort` (see RELEVANCE_SORT and record-relevance.ts): `primary` is the
   * field whose words weigh most. Only with `words`; `sort` is then by id and `descending` is not read.
   */
  relevance?: { primary: string };
  /** Keep the records whose field `key` equals `value` (or, `negated`, does not), every one of these. */
  filters?: readonly RecordFilterCondition[];
  /** Keep the records whose date field `key` lies in each of these ranges of days. */
  dayRanges?: readonly RecordDayRangeCondition[];
  /** The page right after this position in the sort, or right before it; neither: the first page. */
  after?: RecordPosition;
  before?: RecordPosition;
}

/** One condition of a filtered list (see RecordPageQuery.filters). */
export interface RecordFilterCondition {
  key: string;
  value: string | number | boolean;
  negated: boolean;
}

/**
 * A date-range filter's condition: field `key` holds a day (`YYYY-MM-DD`) from `from` to `to`, both included; an
 * absent end is open. A record without the day never matches.
 */
export interface RecordDayRangeCondition {
  key: string;
  from?: string;
  to?: string;
}

/** A page of records, in the order asked for, with the positions to fetch its neighbours from. */
export interface RecordPage {
  records: ResourceRecord[];
  /** Position of the last record, when more follow it. */
  next?: RecordPosition;
  /** Position of the first record, when more precede it. */
  previous?: RecordPosition;
}
