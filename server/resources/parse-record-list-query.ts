import {
  DAY_RANGE_SEPARATOR,
  parseDayRange,
  RECORD_LIST_LIMIT,
  RECORD_SEARCH_MAX_LENGTH,
  RELEVANCE_SORT,
  type RecordListQuery,
  type SortOrder,
} from '../../shared';
import { HttpError } from '../http/http-error';
import { foldForSort } from '../storage/sort-fold';
import { decodeRecordCursor } from './record-list-cursor';
import { isRecordId } from './record-id';
import type {
  RecordDayRangeCondition,
  RecordFilterCondition,
  RecordPageQuery,
  RecordPosition,
} from '../storage/record-page-query';
import { splitWords } from './record-words';
import type { RegisteredResource } from './registered-resource';

const PARAMETERS: ReadonlySet<string> = new Set<keyof RecordListQuery>([
  'q',
  'search',
  'sort',
  'order',
  'limit',
  'after',
  'before',
]);

/** Filters come as `filter.<name>=<value>` (RecordFilterDefinition). */
export const FILTER_PREFIX = 'filter.';

export const RECORD_LIST_MESSAGES = {
  unknownParameter: (name: string) =>
    `Unknown query parameter "${name}". A list takes: ${[...PARAMETERS].join(', ')}, and filter.<name> for its filters.`,
  unknownFilter: (resource: string, name: string, filters: readonly string[]) =>
    filters.length === 0
      ? `${resource} records have no filters (asked for "${name}").`
      : `${resource} records have no filter "${name}". Their filters: ${filters.join(', ')}.`,
  badFilterValue: (name: string, expected: string) => `filter.${name} must be ${expected}.`,
  badDayRange: (name: string) =>
    `filter.${name} must be a range of days FROM${DAY_RANGE_SEPARATOR}TO, each YYYY-MM-DD and either left out ` +
    `(for example 2024-01-01${DAY_RANGE_SEPARATOR}2024-06-30, or 2024-01-01${DAY_RANGE_SEPARATOR} for every day since).`,
  notADay: (name: string, day: string) => `filter.${name}: ${day} is not a day of the calendar.`,
  reversedDayRange: (name: string, from: string, to: string) =>
    `filter.${name}: the range starts (${from}) after it ends (${to}).`,
  repeated: (name: string) => `The query parameter "${name}" is given more than once.`,
  limit: `limit must be a whole number from 1 to ${RECORD_LIST_LIMIT.max}.`,
  order: 'order must be "asc" or "desc".',
  sort: (resource: string, allowed: readonly string[]) =>
    `${resource} records can be sorted by: ${allowed.join(', ')} (and ${RELEVANCE_SORT} during a word search).`,
  relevanceNeedsWords: `sort=${RELEVANCE_SORT} orders a word search by how well records match its words: give search too, or sort by a column.`,
  searchTooLong: `q can be at most ${RECORD_SEARCH_MAX_LENGTH} characters long.`,
  searchNul: 'q cannot contain the character U+0000.',
  wordsTooLong: `search can be at most ${RECORD_SEARCH_MAX_LENGTH} characters long.`,
  wordsWithPrefix: 'Give either q (the start of the sorted column) or search (words anywhere), not both.',
  noWords: 'search needs at least one word: letters or digits.',
  searchNeedsTextSort: (resource: string, searchable: readonly string[]) =>
    searchable.length === 0
      ? `${resource} records cannot be searched: none of their list columns is text.`
      : `A search matches the column the list is sorted by: sort ${resource} by ${searchable.join(' or ')} to search.`,
  bothCursors: 'Give either after or before, not both.',
  badCursor: (name: string) => `The ${name} cursor is not valid: start again from the first page.`,
  otherList: (name: string) =>
    `The ${name} cursor belongs to a list in another sort or search: start again from the first page.`,
} as const;

/** What the records route needs from the query: the source's query, and the names to echo and cursor with. */
export interface ParsedRecordListQuery {
  source: RecordPageQuery;
  sort: string;
  order: SortOrder;
  q: string;
  search: string;
  /** The filters as given, by name. */
  filters: Record<string, string>;
  /** The offset the cursor given carries (see encodeRecordCursor); undefined without a cursor or when it has none. */
  cursorOffset: number | undefined;
}

/** Reads `GET /api/resources/:name/records?…` (see RecordListQuery); anything wrong is a 400 naming the problem. */
export function parseRecordListQuery(
  resource: RegisteredResource,
  query: Record<string, unknown>,
): ParsedRecordListQuery {
  const values = new Map<string, string>();
  const filterValues = new Map<string, string>();
  for (const [name, value] of Object.entries(query)) {
    if (name.startsWith(FILTER_PREFIX)) {
      if (typeof value !== 'string') throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.repeated(name));
      filterValues.set(name.slice(FILTER_PREFIX.length), value);
      continue;
    }
    if (!PARAMETERS.has(name)) throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.unknownParameter(name));
    if (typeof value !== 'string') throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.repeated(name));
    values.set(name, value);
  }

  const limitText = values.get('limit');
  const limit =
    limitText === undefined ? RECORD_LIST_LIMIT.default : /^\d{1,3}$/.test(limitText) ? Number(limitText) : 0;
  if (limit < 1 || limit > RECORD_LIST_LIMIT.max) throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.limit);

  const order = values.get('order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.order);

  const q = values.get('q') ?? '';
  if ([...q].length > RECORD_SEARCH_MAX_LENGTH) throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.searchTooLong);
  // No record holds it (updates refuse it), and PostgreSQL refuses it in a parameter.
  if (q.includes('\u0000')) throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.searchNul);
  const { searchableColumns } = resource.definition;

  const search = values.get('search') ?? '';
  if ([...search].length > RECORD_SEARCH_MAX_LENGTH) throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.wordsTooLong);
  const words = search === '' ? undefined : splitWords(search);
  if (words && q !== '') throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.wordsWithPrefix);
  if (words && words.length === 0) throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.noWords);
  // A word search sorted by a column walks that column's index, each record checked in the word index (RecordPager):
  // the same keyset cursor as any sorted list, so its pages neither skip nor repeat a match.

  const sortable = ['id', ...resource.sortKeys.keys()];
  const sort = values.get('sort') ?? (words ? RELEVANCE_SORT : q === '' ? 'id' : (searchableColumns[0] ?? 'id'));
  const byRelevance = sort === RELEVANCE_SORT;
  if (byRelevance && !words) throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.relevanceNeedsWords);
  const kind = byRelevance ? undefined : resource.sortKeys.get(sort);
  if (sort !== 'id' && !kind && !byRelevance) {
    throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.sort(resource.name, sortable));
  }
  if (q !== '' && kind !== 'text') {
    throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.searchNeedsTextSort(resource.name, searchableColumns));
  }

  if (values.has('after') && values.has('before')) throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.bothCursors);
  let cursorOffset: number | undefined;
  const positionFrom = (name: 'after' | 'before'): RecordPosition | undefined => {
    const cursor = values.get(name);
    if (cursor === undefined) return undefined;
    const decoded = decodeRecordCursor(cursor);
    if (!decoded.ok) throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.badCursor(name));
    if (decoded.list.sort !== sort || decoded.list.q !== q || decoded.list.search !== search) {
      throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.otherList(name));
    }
    // A position in a sort by a column or by relevance has a key (the score for relevance); one by id has none.
    if ((kind === undefined && !byRelevance) !== (decoded.position.key === undefined)) {
      throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.badCursor(name));
    }
    cursorOffset = decoded.offset;
    return decoded.position;
  };
  const after = positionFrom('after');
  const before = positionFrom('before');

  const { filters, dayRanges } = parseFilters(resource, filterValues);

  const source: RecordPageQuery = {
    sort: kind ? { column: sort, kind } : { column: 'id' },
    descending: order === 'desc',
    limit,
    ...(q === '' ? {} : { prefix: foldForSort(q.normalize('NFC')) }),
    ...(words ? { words: [...new Set(words)] } : {}),
    // The first list column names the record (it links to it): its words weigh most.
    ...(byRelevance ? { relevance: { primary: resource.definition.listColumns[0] ?? 'title' } } : {}),
    ...(filters.length > 0 ? { filters } : {}),
    ...(dayRanges.length > 0 ? { dayRanges } : {}),
    ...(after ? { after } : {}),
    ...(before ? { before } : {}),
  };
  return { source, sort, order, q, search, filters: Object.fromEntries(filterValues), cursorOffset };
}

/** Each `filter.<name>=<value>` as the condition the record source applies; anything wrong is a 400. */
function parseFilters(
  resource: RegisteredResource,
  given: ReadonlyMap<string, string>,
): { filters: RecordFilterCondition[]; dayRanges: RecordDayRangeCondition[] } {
  const conditions: RecordFilterCondition[] = [];
  const dayRanges: RecordDayRangeCondition[] = [];
  for (const [name, text] of given) {
    const filter = resource.filters.get(name);
    if (!filter) {
      throw HttpError.invalidRequest(
        RECORD_LIST_MESSAGES.unknownFilter(resource.name, name, [...resource.filters.keys()]),
      );
    }
    const { kind, options } = filter.definition;
    if (kind === 'checkbox') {
      if (text !== 'true' && text !== 'false') {
        throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.badFilterValue(name, '"true" or "false"'));
      }
      // Not ticked: false, or never set.
      conditions.push({ key: filter.key, value: true, negated: text === 'false' });
    } else if (kind === 'dateRange') {
      const parsed = parseDayRange(text);
      if (!parsed.ok) {
        throw HttpError.invalidRequest(
          parsed.reason === 'notADay'
            ? RECORD_LIST_MESSAGES.notADay(name, parsed.day)
            : parsed.reason === 'reversed'
              ? RECORD_LIST_MESSAGES.reversedDayRange(name, parsed.from, parsed.to)
              : RECORD_LIST_MESSAGES.badDayRange(name),
        );
      }
      dayRanges.push({ key: filter.key, ...parsed.range });
    } else if (kind === 'relation') {
      const id = /^[1-9]\d{0,9}$/.test(text) ? Number(text) : NaN;
      if (!isRecordId(id)) throw HttpError.invalidRequest(RECORD_LIST_MESSAGES.badFilterValue(name, 'a record id'));
      conditions.push({ key: filter.key, value: id, negated: false });
    } else {
      if (!options?.includes(text)) {
        throw HttpError.invalidRequest(
          RECORD_LIST_MESSAGES.badFilterValue(name, `one of: ${options?.join(', ') ?? ''}`),
        );
      }
      conditions.push({ key: filter.key, value: text, negated: false });
    }
  }
  return { filters: conditions, dayRanges };
}
