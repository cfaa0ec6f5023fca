/**
 * The wire contract of the resource API (`/api/resources`): a resource's definition and form items, its records,
 * their lists (queries, pages, totals, filters) and bulk actions. The rest of the wire is in wire.ts.
 */
import type { JsonObject, JsonValue } from './json';
import type { ErrorBody } from './errors';
import { instantInUtc } from './instant-in-utc';
import type { RecordTimes, ResourceRecord } from './resource-record';

/**
 * `date`: a calendar day, `YYYY-MM-DD` (see isCalendarDay). `relation`: the id of one record of the field's
 * `resource` (a belongsTo relation's key; the form offers a search of that resource's records).
 */
export type FieldInput = 'text' | 'textarea' | 'number' | 'select' | 'checkbox' | 'email' | 'date' | 'relation';

/** An ordinary form field. */
export interface FieldItem {
  type: 'field';
  name: string;
  label: string;
  input: FieldInput;
  required?: boolean;
  maxLength?: number;
  options?: string[];
  help?: string;
  /** For a `relation` field: the related resource's name; the field's value is the id of one of its records. */
  resource?: string;
  /** For a `relation` field: the name of the belongsTo relation it sets (`author`; the field's name is its key). */
  relation?: string;
}

/** A slot placed among the fields of a resource form. */
export interface FormSlotEntry {
  type: 'slot';
  component: string;
  props: JsonObject;
}

export type FormItem = FieldItem | FormSlotEntry;

export interface RelationDefinition {
  name: string;
  label: string;
  /** The related resource's name. */
  resource: string;
}

export interface ResourceSummary {
  name: string;
  label: string;
}

/** `GET /api/resources/:name` -> `{ resource }`. */
export interface ResourceDefinition extends ResourceSummary {
  /**
   * What one record is called, lower case (`article`; the server says `record` when the resource does not). Read it
   * with a fallback: a definition made by hand (a remote's tests) may leave it out.
   */
  recordLabel?: string;
  fields: FormItem[];
  relations: RelationDefinition[];
  /** Names of the fields shown as the columns of the resource's list, in order; the first links to the record. */
  listColumns: string[];
  /** The list columns the list can be sorted by (`sort=`); `id` can always be sorted by too. */
  sortableColumns: string[];
  /** The sortable columns a search (`q=`) can match: text columns. A search matches the column sorted by. */
  searchableColumns: string[];
  /** The filters its list offers (`filter.<name>=` in RecordListQuery), in order. */
  filters: RecordFilterDefinition[];
  /** Whether staff may create records of this resource (`POST .../records`, the New page). */
  canCreate: boolean;
  /** Whether staff may delete records of this resource (`DELETE .../records/:id`), and restore them a while after. */
  canDelete: boolean;
}

/**
 * A filter of a resource's list. `select`: the value is one of `options`; `checkbox`: `true` (ticked) or `false`
 * (not ticked); `relation`: the id of a record of `resource`; `dateRange`: days of a date field, `FROM..TO` with
 * both ends included and either left out (`2024-01-01..2024-12-31`, `2024-01-01..`, `..2024-12-31`; see DayRange).
 */
export interface RecordFilterDefinition {
  name: string;
  label: string;
  kind: 'select' | 'checkbox' | 'relation' | 'dateRange';
  options?: string[];
  resource?: string;
}

export interface RelationBlock extends RelationDefinition {
  records: ResourceRecord[];
}

/** `GET /api/resources` */
export interface ResourceListPayload {
  resources: ResourceSummary[];
}

/** `GET /api/resources/:name` */
export interface ResourcePayload {
  resource: ResourceDefinition;
}

export type SortOrder = 'asc' | 'desc';

/** How many records a page of a list holds: `limit=` from 1 to `max`, `default` when not given. */
export const RECORD_LIST_LIMIT = Object.freeze({ default: 25, max: 100 });

/** Longest search (`q=` or `search=`) a list accepts, in characters. */
export const RECORD_SEARCH_MAX_LENGTH = 200;

/**
 * A list counts the records it matches exactly up to this many; beyond, it says "more than" this (RecordListTotal),
 * so that counting reads at most this many index entries however large the table.
 */
export const RECORD_TOTAL_BOUND = 1000;

/**
 * The sort of a word search by how well each record matches its words (only with `search`; a 400 without it). Each
 * word of the search scores the best of: 4 when a word of the list's first text column is that word, 3 when one
 * starts with it, 2 when a word of another text value is that word, 1 when one starts with it; a record's relevance
 * is the sum, the highest first, ties newest first. `order` does not apply. The server ranks the newest
 * RELEVANCE_RANKED_MAX matches; the older ones of a larger result follow them, newest first.
 */
export const RELEVANCE_SORT = 'relevance';

/** How many matches of a word search the relevance sort ranks (see RELEVANCE_SORT). */
export const RELEVANCE_RANKED_MAX = 1000;

/** How long a deleted record can be restored (`POST .../records/:id/restore`), in milliseconds: a day. */
export const RECORD_RESTORE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Until when a deleted record can be restored, as the server's messages say it (`deletedRecord` errors): to the
 * minute, in UTC, since the server does not know the reader's time zone (instantInUtc). The host finds this text in a message to
 * show the moment in the reader's own clock instead.
 */
export function restoreDeadlineInUtc(restorableUntil: number): string {
  return instantInUtc(restorableUntil);
}

/**
 * Query of `GET /api/resources/:name/records`, every parameter optional (a bad one is answered 400):
 * - `sort`: `id` or one of the resource's `sortableColumns`; `id` by default, or the first searchable column when
 *   `q` is given. With `search`, also `relevance` (RELEVANCE_SORT), the default then: the best matches first.
 * - `order`: `asc` (default) or `desc`.
 * - `q`: keeps the records whose sorted column starts with it, ignoring the case of ASCII letters. It needs the list
 *   sorted by a searchable column, so that an index serves both the match and the order.
 * - `search`: keeps the records that have every word of it, anywhere in any text value (a word matches the start of
 *   a word: "note" finds "Notes", not "footnote"; letters in any case). Sorted by relevance unless `sort` says
 *   otherwise; not with `q`.
 * - `filter.<name>`: keeps the records the resource's filter `<name>` lets through (RecordFilterDefinition), with
 *   any other filter, search and sort; not part of this type's keys, as its names are the resource's.
 * - `limit`: records per page (see RECORD_LIST_LIMIT).
 * - `after` / `before` (one at most): a cursor from a page's `next` / `previous`; the page that follows or precedes
 *   it in the same sort. Cursors are opaque and only valid with the `sort` they came from.
 */
export interface RecordListQuery {
  q?: string;
  search?: string;
  sort?: string;
  order?: SortOrder;
  limit?: number;
  after?: string;
  before?: string;
}

/** Where a page of a list stands: the query as applied, and the cursors to its neighbours when they exist. */
export interface RecordListPage {
  sort: string;
  order: SortOrder;
  limit: number;
  /** The search applied; '' for none. */
  q: string;
  /** The word search applied; '' for none. */
  search: string;
  /** The filters applied, by name, as given (`filter.<name>=<value>`). */
  filters: Record<string, string>;
  /** How many records the list holds with its search (every page, not only this one). */
  total: RecordListTotal;
  /**
   * How many records of the list come before this page: 0 on the first page, else counted along the pages followed
   * to this one (a record added or removed on an earlier page meanwhile is not seen). Absent when the cursor given
   * does not say (one made by an older server).
   */
  offset?: number;
  /** Pass as `after` for the next page; absent on the last one. */
  next?: string;
  /** Pass as `before` for the previous page; absent on the first one. */
  previous?: string;
}

/** `count` records exactly, or (`exact` false) more than `count`, which is then RECORD_TOTAL_BOUND. */
export interface RecordListTotal {
  count: number;
  exact: boolean;
}

/** `GET /api/resources/:name/records` (query: RecordListQuery): one page of the tenant's records. */
export interface RecordListPayload {
  records: ResourceRecord[];
  page: RecordListPage;
  /**
   * For each list column that is a relation field, by the column's name: the records of the related resource the
   * page's records point at, each once (what the column's cells name). Absent when no list column is a relation.
   */
  related?: Record<string, ResourceRecord[]>;
  /**
   * Each record's times, by its id (`times[record.id]`). A map beside `records`, as `related` is, rather than an array
   * in step with them: a client that keeps, merges or reorders records of several pages (a sync) looks each up by id,
   * and a record whose times are not known is simply not in it. Absent when the records' source keeps no times
   * (RecordPayload.times); the stored records always have them.
   */
  times?: Record<string, RecordTimes>;
}

/** `GET` and `PUT /api/resources/:name/records/:id`; `POST .../records` and `POST .../records/:id/restore` too. */
export interface RecordPayload {
  record: ResourceRecord;
  relations: RelationBlock[];
  /**
   * When the record was created and last changed. The stored records always have them; optional for a record
   * source other than the stored one that keeps none (server/resources/record-source.ts; there is none such today).
   */
  times?: RecordTimes;
}

/**
 * Body of `PUT /api/resources/:name/records/:id` and of `POST /api/resources/:name/records`: field values. A `PUT`
 * may also carry, under UNCHANGED_FIELDS_KEY, the values the client loaded of the fields it changes: the save then
 * lands only if each of them still holds that value, checked in the write itself (409 `conflict` with the record as
 * stored in `error.storedRecord` otherwise), so that two people saving the same field never replace each other's
 * value unseen, whichever host each is on.
 */
export type RecordUpdateRequest = Record<string, JsonValue>;

/** The key of a `PUT` body whose value (`{ field: value loaded }`) is the precondition of the save (no field has it). */
export const UNCHANGED_FIELDS_KEY = '$ifUnchanged';

/**
 * The header of a `POST /api/resources/:name/records` that is made once: a key (1 to 200 visible ASCII characters, a
 * new UUID per record to create) that the same account sends again, within a day, with the same values when it cannot
 * tell whether the create was made (its answer lost). Sent again, the create writes nothing and answers the record
 * the key made (201, with RECORD_CREATION_REPLAYED_HEADER); with other values, 409 `conflict`.
 */
export const RECORD_CREATION_KEY_HEADER = 'Idempotency-Key';

/** The header (`true`) of a create's answer that is the record an earlier create with the same key made. */
export const RECORD_CREATION_REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * `DELETE /api/resources/:name/records/:id`: the record as it was, and until when (epoch milliseconds)
 * `POST /api/resources/:name/records/:id/restore` brings it back with the same id.
 */
export interface RecordDeletedPayload {
  deleted: ResourceRecord;
  restorableUntil: number;
}

/**
 * A record deleted less than RECORD_RESTORE_WINDOW_MS ago: the record as it was, when it was deleted, and until when
 * `POST /api/resources/:name/records/:id/restore` brings it back with its id (epoch milliseconds both).
 */
export interface DeletedRecordEntry {
  record: ResourceRecord;
  deletedAt: number;
  restorableUntil: number;
}

/** How many deleted records `GET .../records/deleted` lists: `limit=` from 1 to `max`, `default` when not given. */
export const DELETED_RECORDS_LIMIT = Object.freeze({ default: 100, max: 100 });

/**
 * `GET /api/resources/:name/records/deleted` (query: `limit`, see DELETED_RECORDS_LIMIT, and `before`, a page's
 * `next`): the tenant's records of the resource that can still be restored, the newest deletion first, at most
 * `limit` of them.
 */
export interface DeletedRecordsPayload {
  deleted: DeletedRecordEntry[];
  /** The `limit` applied. */
  limit: number;
  /** Whether older deletions, still restorable, were left out to keep to `limit`. */
  more: boolean;
  /** With `more`: the `before` of the page of those older deletions. */
  next?: string;
}

/** Most records one bulk request may name: a page of a list at its largest. */
export const RECORD_BULK_MAX = 100;

/**
 * Most records a bulk request addressing a list's query (BulkRecordQuery) may reach: as many as a list's total counts
 * exactly (RECORD_TOTAL_BOUND), so that the number staff confirm is always the exact one.
 */
export const RECORD_BULK_QUERY_MAX = RECORD_TOTAL_BOUND;

/**
 * "Every record this list matches", in a bulk request instead of ids: the list's `q`, `search`, `sort` and
 * `filter.<name>` parameters as the list's page applied them (RecordListQuery; `sort` is the column `q` starts, and
 * without it `q` applies to the column a list without sort takes; order, limit and cursors have no place here), and
 * `count`, how many records staff were told they act on. The server finds the matches itself, in the session's
 * tenant, with the list's own checks; it refuses (409 `conflict`) when they are no longer `count`, and (400) when
 * they are more than RECORD_BULK_QUERY_MAX.
 */
export interface BulkRecordQuery {
  list: Record<string, string>;
  count: number;
}

/**
 * Body of `POST /api/resources/:name/records/bulk`: one action on many records, each changed on its own (atomic per
 * record, never all or nothing), named by `ids` or, for delete and update, by the `query` they match. `delete`: as
 * `DELETE .../records/:id` each; `update`: as `PUT .../records/:id` with `values` each (UNCHANGED_FIELDS_KEY too,
 * checked on each record); `restore`: as `POST .../records/:id/restore` each (the undo of a delete).
 */
export type BulkRecordRequest =
  | { action: 'delete'; ids: number[] }
  | { action: 'delete'; query: BulkRecordQuery }
  | { action: 'update'; ids: number[]; values: RecordUpdateRequest }
  | { action: 'update'; query: BulkRecordQuery; values: RecordUpdateRequest }
  | { action: 'restore'; ids: number[] };

/**
 * What became of one record of a bulk request: done (the record as it is now, or as deleted), or why not. A record
 * an update changed also carries `previous`: the values the fields set held before (absent ones as null), so that the
 * change can be undone even for records the client never loaded.
 */
export type BulkRecordResult =
  | { id: number; ok: true; record: ResourceRecord; previous?: Record<string, JsonValue> }
  | { id: number; ok: false; error: ErrorBody['error'] };

/** Answer of a bulk request (200 whatever the results): one result per id, in the order given (by id for a query). */
export interface BulkRecordPayload {
  results: BulkRecordResult[];
  /** For a delete: until when the deleted records can be restored (action `restore`, or one by one). */
  restorableUntil?: number;
}

// ---------------------------------------------------------------------------------------------- slot props

/** Context of `resource-page-actions` and `resource-edit-actions`: the record the page shows, and where it lives. */
export interface ResourceActionContext {
  resource: string;
  resourceId: number;
  record: ResourceRecord;
}

/** Props a slot component at a resource-action location receives: the context, then the slot's own props. */
export type ResourceActionSlotProps<P extends object = JsonObject> = P & ResourceActionContext;
