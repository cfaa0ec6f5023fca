import type { DeletedRecordEntry, JsonObject, RecordTimes, ResourceRecord } from '../../shared';
import type { RecordPage, RecordPageQuery } from '../storage/record-page-query';

/** A record a write points at (the value of a relation field): the write lands only while that record exists. */
export interface RecordReference {
  /** The relation field holding the id. */
  field: string;
  resource: string;
  id: number;
}

/** Whose create, under which key. Keys are per account (record-creations.ts): one account's key never answers another's record. */
export interface CreationKey {
  userId: number;
  key: string;
}

/** The outcome of a keyed create: the record made now, or (`replayed`) the one made earlier under the key. */
export interface KeyedCreation {
  id: number;
  replayed: boolean;
  /** Undefined when the record made earlier is not there any more (deleted since). */
  record: ResourceRecord | undefined;
}

/** Records of `resource` hold the id of a record in `foreignKey` (a relation): its delete lands only when none does. */
export interface ReferringRelation {
  resource: string;
  foreignKey: string;
}

/** A write refused because records it points at are not in the tenant (deleted meanwhile, say). */
export class MissingReferencesError extends Error {
  constructor(readonly references: readonly RecordReference[]) {
    super(`No such record: ${references.map((reference) => `${reference.resource} ${reference.id}`).join(', ')}`);
  }
}

/** A delete refused because records of a relation hold the record's id (pointed at it meanwhile, say). */
export class ReferredRecordError extends Error {
  constructor(readonly relation: ReferringRelation) {
    super(`Records of ${relation.resource} refer to the record (${relation.foreignKey}).`);
  }
}

/**
 * A deleted record as the server sees it: the wire's entry and the account that deleted it (null for none, for one
 * deleted before schema step 18 or by a host of an earlier release). Never sent: who deleted a record only decides
 * how a resent DELETE answers.
 */
export interface DeletedRecordWithDeleter extends DeletedRecordEntry {
  deletedBy: number | null;
}

/**
 * Where the records of every resource live, always scoped by tenant. The references a write is given and the
 * relations a delete is given are checked in the write's own transaction: a save pointing a record at another and
 * the delete of that other, at the same moment on any hosts, never both land.
 */
export interface RecordSource {
  list(tenant: string, resource: string): Promise<ResourceRecord[]>;
  /**
   * One page of a list, by keyset: the records of `tenant` and `resource` that follow `query.after` (or precede
   * `query.before`) in the order of the sort key then the id, both ascending or both descending, at most
   * `query.limit`, returned in that order. `query.prefix` keeps only the records whose text sort key starts with it
   * (the key is the value with ASCII letters lower-cased, '' when missing). A missing number sorts as '' too: after
   * every number. `next` / `previous` are set only when a record exists beyond the page on that side.
   *
   * The cost must not grow with the table: the filter, the order and the cursor are served by one index on
   * (tenant, resource, sort key, id), so a page reads about `limit` index entries, never counts or skips rows. With
   * `query.relevance`, the words' matches in relevance order instead (relevancePage): a page then reads at most
   * RELEVANCE_RANKED_MAX matches, whatever the table holds.
   */
  page(tenant: string, resource: string, query: RecordPageQuery): Promise<RecordPage>;
  get(tenant: string, resource: string, id: number): Promise<ResourceRecord | undefined>;
  /** Records whose data has `key` equal to `value` (the "many" side of a relation). */
  findBy(tenant: string, resource: string, key: string, value: number | string): Promise<ResourceRecord[]>;
  count(tenant: string, resource: string): Promise<number>;
  /** Throws MissingReferencesError, writing nothing, when a record of `references` is not in the tenant. */
  insert(
    tenant: string,
    resource: string,
    data: JsonObject,
    references?: readonly RecordReference[],
  ): Promise<ResourceRecord>;
  /**
   * `insert`, once per account and key: the same `creation` again within RECORD_CREATION_KEY_MS answers the record it
   * made (`replayed`; `record` undefined when deleted since) and writes nothing. Throws CreationKeyReusedError, writing
   * nothing, when the key made a record of other values.
   */
  insertOnce(
    tenant: string,
    resource: string,
    data: JsonObject,
    references: readonly RecordReference[],
    creation: CreationKey,
  ): Promise<KeyedCreation>;
  /** Replaces the data of a record; undefined when the tenant has no such record. */
  replace(tenant: string, resource: string, id: number, data: JsonObject): Promise<ResourceRecord | undefined>;
  /**
   * Changes a record atomically: `change` gets the record as stored and returns its new data (it may throw to refuse,
   * and may run more than once). No write made meanwhile, by this or another host, is lost. Undefined when the
   * tenant has no such record. Throws MissingReferencesError, writing nothing, when a record of `references` is not in
   * the tenant.
   */
  update(
    tenant: string,
    resource: string,
    id: number,
    change: (current: ResourceRecord) => JsonObject | Promise<JsonObject>,
    references?: readonly RecordReference[],
  ): Promise<ResourceRecord | undefined>;
  /**
   * Moves a record to the deleted ones, restorable for RECORD_RESTORE_WINDOW_MS, noting `deletedBy` (the account, or
   * null/absent for none); undefined when there is none. Throws ReferredRecordError, deleting nothing, when a record
   * of `referrers` holds its id.
   */
  delete(
    tenant: string,
    resource: string,
    id: number,
    options?: { referrers?: readonly ReferringRelation[]; now?: number; deletedBy?: number | null },
  ): Promise<ResourceRecord | undefined>;
  /**
   * Brings a record deleted within RECORD_RESTORE_WINDOW_MS back, with its id; undefined when there is none. Throws
   * MissingReferencesError, restoring nothing, when a record `referencesOf` names (given the deleted record) is gone.
   */
  restore(
    tenant: string,
    resource: string,
    id: number,
    options?: { referencesOf?: (record: ResourceRecord) => readonly RecordReference[]; now?: number },
  ): Promise<ResourceRecord | undefined>;
  /**
   * The records of `tenant` and `resource` deleted within RECORD_RESTORE_WINDOW_MS of `now` (what `restore` can bring
   * back), the newest deletion first (then the highest id), at most `limit`, those after `before` (older, or as old
   * with a lower id) when given. Reads about `limit` index entries.
   */
  listDeleted(
    tenant: string,
    resource: string,
    options: { limit: number; before?: { deletedAt: number; id: number }; now?: number },
  ): Promise<DeletedRecordEntry[]>;
  /**
   * The record `restore` would bring back (deleted within RECORD_RESTORE_WINDOW_MS of `now`), with who deleted it;
   * undefined for none.
   */
  getDeleted(
    tenant: string,
    resource: string,
    id: number,
    options?: { now?: number },
  ): Promise<DeletedRecordWithDeleter | undefined>;
  /**
   * How many records the list of `query` holds (its search, ignoring the cursor): exact up to `bound`, `bound + 1`
   * for any more. Reads at most `bound + 1` index entries, whatever the size of the table.
   */
  countPage(tenant: string, resource: string, query: RecordPageQuery, bound: number): Promise<number>;
  /** Changes whenever any record may have changed, here or in another process or host (StorageEngine.changeStamp). */
  changeStamp(): string | Promise<string>;
  /**
   * When `record`, an object this source returned (from any method above), was created and last changed, as read
   * with it; undefined for one it did not return so. Absent on a source that keeps no times: the API then leaves
   * them out (RecordPayload.times). A save that changes nothing leaves the record's `updatedAt` as it was.
   */
  timesOf?(record: ResourceRecord): RecordTimes | undefined;
}
