import {
  isPlainObject,
  RECORD_BULK_MAX,
  RECORD_BULK_QUERY_MAX,
  type BulkRecordQuery,
  type BulkRecordResult,
  type JsonValue,
  type RecordUpdateRequest,
  type ResourceRecord,
} from '../../shared';
import { HttpError } from '../http/http-error';
import { FILTER_PREFIX } from './parse-record-list-query';
import { isRecordId } from './record-id';

export const RECORD_BULK_MESSAGES = {
  body:
    `Send { "action": "delete" | "update" | "restore", "ids": [record ids] or, for delete and update, "query": ` +
    `{ "list": {the list's q, search, sort and filter.<name>}, "count": matches confirmed }, "values": {…} for update }.`,
  ids: `ids must list from 1 to ${RECORD_BULK_MAX} distinct record ids.`,
  idsOrQuery: 'Give either ids or query, not both.',
  restoreByIds: 'restore takes ids (those of the records a delete answered), not a query.',
  values: 'An update needs values: an object of field values.',
  queryShape:
    'query must be { "list": { its q, search, sort and filter.<name> as strings }, "count": the number of matches ' +
    'confirmed }.',
  queryParameter: (name: string) =>
    `query.list takes the list's q, search, sort and filter.<name>, not "${name}": a bulk action reaches every match, ` +
    `on every page.`,
  tooMany: (found: string) =>
    `This list matches ${found} records: one bulk action reaches at most ${RECORD_BULK_QUERY_MAX}. Narrow the list ` +
    `with a search or a filter, or act on the selected records.`,
  countChanged: (confirmed: number, now: number) =>
    `The list matches ${now} records now, not the ${confirmed} confirmed (records were changed meanwhile): nothing ` +
    `was changed. Look at the list again and confirm anew.`,
} as const;

/** A bulk request as read: its records named by ids, or by the list query they match (resolved by the router). */
export type ParsedBulkRequest = { named: { ids: number[] } | { query: BulkRecordQuery } } & (
  | { action: 'delete' }
  | { action: 'restore' }
  | { action: 'update'; values: RecordUpdateRequest }
);

/** Reads the body of `POST .../records/bulk`; anything malformed is a 400 for the whole request. */
export function parseBulkRequest(body: unknown): ParsedBulkRequest {
  if (!isPlainObject(body)) throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.body);
  const { action, ids, query, values } = body;
  if (action !== 'delete' && action !== 'update' && action !== 'restore') {
    throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.body);
  }
  if (ids !== undefined && query !== undefined) throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.idsOrQuery);
  let named: { ids: number[] } | { query: BulkRecordQuery };
  if (query !== undefined) {
    if (action === 'restore') throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.restoreByIds);
    named = { query: parseBulkQuery(query) };
  } else {
    if (
      !Array.isArray(ids) ||
      ids.length === 0 ||
      ids.length > RECORD_BULK_MAX ||
      !ids.every((id) => isRecordId(id)) ||
      new Set(ids).size !== ids.length
    ) {
      throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.ids);
    }
    named = { ids: ids as number[] };
  }
  if (action !== 'update') return { action, named };
  if (!isPlainObject(values)) throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.values);
  // A parsed JSON body: every value is JSON.
  return { action, named, values: values as RecordUpdateRequest };
}

/**
 * The list parameters a bulk query takes: those that decide which records match. `sort` is one, as `q` keeps the
 * records whose sorted column starts with it; order, limit and cursors only page the same matches.
 */
const MATCHING_PARAMETERS: ReadonlySet<string> = new Set(['q', 'search', 'sort']);

/**
 * The `query` of a bulk request: the list's search, sort and filters (checked by the list's own parser later), a
 * count.
 */
function parseBulkQuery(query: unknown): BulkRecordQuery {
  if (!isPlainObject(query) || !isPlainObject(query.list)) {
    throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.queryShape);
  }
  const { list, count } = query;
  if (!Number.isSafeInteger(count) || (count as number) < 1 || (count as number) > RECORD_BULK_QUERY_MAX) {
    throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.queryShape);
  }
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(list)) {
    if (!MATCHING_PARAMETERS.has(name) && !name.startsWith(FILTER_PREFIX)) {
      throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.queryParameter(name));
    }
    if (typeof value !== 'string') throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.queryShape);
    parameters[name] = value;
  }
  return { list: parameters, count: count as number };
}

/**
 * Runs `change` on each id in turn, each on its own (a record refused does not undo the others): one result per id,
 * the record on success (with the values it had before, for an update), the error body the single-record route
 * would have answered otherwise. Errors other than HttpError (the database failing) end the request as usual, with
 * the records done so far done.
 */
export async function runBulk(
  ids: readonly number[],
  change: (id: number) => Promise<{ record: ResourceRecord; previous?: Record<string, JsonValue> }>,
): Promise<BulkRecordResult[]> {
  const results: BulkRecordResult[] = [];
  for (const id of ids) {
    try {
      results.push({ id, ok: true, ...(await change(id)) });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      results.push({ id, ok: false, error: error.toBody().error });
    }
  }
  return results;
}
