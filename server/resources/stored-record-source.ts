/*
 * Above 300 lines for one reason: each write of a record (insert, keyed insert, save, delete, restore) keeps the record, its
 * deleted copy, its words and its references consistent in one transaction, on either engine, and these share the
 * row mapping and locking; paging is record-pager.ts's, splitting into words record-words.ts's, indexing them at
 * start-up record-words-backfill.ts's.
 */
import { isDeepStrictEqual } from 'node:util';
import { type Kysely } from 'kysely';
import {
  RECORD_RESTORE_WINDOW_MS,
  type DeletedRecordEntry,
  type JsonObject,
  type RecordTimes,
  type ResourceRecord,
} from '../../shared';
import { HttpError } from '../http/http-error';
import type { AppSchema } from '../storage/app-schema';
import type { AdvisoryLockWait } from '../storage/advisory-lock';
import type { StorageEngine } from '../storage/storage-engine';
import { FIELD_NAME_PATTERN } from './field';
import type { RecordPage, RecordPageQuery } from '../storage/record-page-query';
import { createOnce } from './record-creations';
import { RecordPager } from './record-pager';
import { relevancePage } from './record-relevance';
import {
  MissingReferencesError,
  ReferredRecordError,
  type CreationKey,
  type DeletedRecordWithDeleter,
  type KeyedCreation,
  type RecordReference,
  type RecordSource,
  type ReferringRelation,
} from './record-source';
import { keepTimes, keptTimes } from './record-times';
import { recordWordIndexFor, recordWords, type RecordWordIndex } from './record-words';
import { RecordWordsBackfill, type WordsIndexingStart } from './record-words-backfill';

/** Compare-and-set attempts of one update before it gives up (each failed one means another write landed). */
const UPDATE_ATTEMPTS = 50;

export const RECORD_BUSY_MESSAGE = 'The record is being changed by others at this moment. Try again shortly.';

interface RecordRow {
  id: number;
  data: string;
  /** Both, when read from `records` (a list of deleted records reads none): timesOf then answers them. */
  created_at?: number;
  updated_at?: number;
}

/**
 * Records in the `records` table of the storage engine (SQLite or PostgreSQL): one row per record, its field values
 * as JSON text.
 */
export class StoredRecordSource implements RecordSource {
  private readonly pager: RecordPager;
  private readonly words: RecordWordIndex;

  private readonly relevanceRanked: number | undefined;

  /** `fewDaysRecords`, `fewMatches`: see RecordPager; `relevanceRanked`: see relevancePage (tests lower them). */
  constructor(
    private readonly engine: StorageEngine,
    {
      fewDaysRecords,
      fewMatches,
      relevanceRanked,
    }: { fewDaysRecords?: number; fewMatches?: number; relevanceRanked?: number } = {},
  ) {
    this.pager = new RecordPager(engine, toRecord, fewDaysRecords, fewMatches);
    this.relevanceRanked = relevanceRanked;
    this.words = recordWordIndexFor(engine.kind);
  }

  /** Runs `work` in a transaction, or in the caller's when `db` is given (seeding's exclusive work). */
  private transaction<T>(db: Kysely<AppSchema> | undefined, work: (db: Kysely<AppSchema>) => Promise<T>): Promise<T> {
    return db ? work(db) : this.engine.db.transaction().execute(work);
  }

  private scoped(tenant: string, resource: string, db: Kysely<AppSchema> = this.engine.db) {
    return db
      .selectFrom('records')
      .select(['id', 'data', 'created_at', 'updated_at'])
      .where('tenant_id', '=', tenant)
      .where('resource', '=', resource);
  }

  async list(tenant: string, resource: string, db?: Kysely<AppSchema>): Promise<ResourceRecord[]> {
    return (await this.scoped(tenant, resource, db).orderBy('id').execute()).map(toRecord);
  }

  page(tenant: string, resource: string, query: RecordPageQuery): Promise<RecordPage> {
    if (query.relevance) {
      return relevancePage(query, (byId) => this.pager.page(tenant, resource, byId), this.relevanceRanked);
    }
    return this.pager.page(tenant, resource, query);
  }

  async get(tenant: string, resource: string, id: number): Promise<ResourceRecord | undefined> {
    const row = await this.scoped(tenant, resource).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async findBy(tenant: string, resource: string, key: string, value: number | string): Promise<ResourceRecord[]> {
    if (!FIELD_NAME_PATTERN.test(key)) throw new Error(`Not a record key: ${JSON.stringify(key)}`);
    const rows = await this.scoped(tenant, resource)
      .where(this.engine.dialect.recordFieldIs(key, value))
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async count(tenant: string, resource: string, db: Kysely<AppSchema> = this.engine.db): Promise<number> {
    const { count } = await db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('tenant_id', '=', tenant)
      .where('resource', '=', resource)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  async insert(
    tenant: string,
    resource: string,
    data: JsonObject,
    references: readonly RecordReference[] = [],
    given?: Kysely<AppSchema>,
  ): Promise<ResourceRecord> {
    const now = Date.now();
    const kept = withoutId(data);
    const stored = JSON.stringify(kept);
    const id = await this.transaction(given, async (trx) => {
      await this.assertReferencesExist(trx, tenant, references);
      const row = await trx
        .insertInto('records')
        .values({ tenant_id: tenant, resource, data: stored, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.words.write(trx, row.id, recordWords(tenant, resource, kept));
      return row.id;
    });
    // Inside a caller's transaction (`given`), nothing is committed yet: the caller signals once it is.
    if (!given) this.engine.noteWrite();
    return toRecord({ id, data: stored, created_at: now, updated_at: now });
  }

  async insertOnce(
    tenant: string,
    resource: string,
    data: JsonObject,
    references: readonly RecordReference[],
    creation: CreationKey,
  ): Promise<KeyedCreation> {
    const made = await this.engine.db.transaction().execute((trx) =>
      createOnce(
        trx,
        { tenant, resource },
        creation,
        { data, references },
        () => this.insert(tenant, resource, data, references, trx),
        async (id) => {
          const row = await this.scoped(tenant, resource, trx).where('id', '=', id).executeTakeFirst();
          return row ? toRecord(row) : undefined;
        },
      ),
    );
    // insert ran inside this transaction and left the signal to it: given once it is committed, for the caches.
    if (!made.replayed) this.engine.noteWrite();
    return made;
  }

  /**
   * Moves the record to the deleted records, where `restore` finds it for RECORD_RESTORE_WINDOW_MS; records deleted
   * longer ago are let go meanwhile. Undefined when the tenant has no such record.
   */
  async delete(
    tenant: string,
    resource: string,
    id: number,
    {
      referrers = [],
      now = Date.now(),
      deletedBy = null,
    }: { referrers?: readonly ReferringRelation[]; now?: number; deletedBy?: number | null } = {},
  ): Promise<ResourceRecord | undefined> {
    const deleted = await this.engine.db.transaction().execute(async (trx) => {
      const row = await this.locked(
        trx
          .selectFrom('records')
          .selectAll()
          .where('id', '=', id)
          .where('tenant_id', '=', tenant)
          .where('resource', '=', resource),
        'update',
      ).executeTakeFirst();
      if (!row) return undefined;
      // Locked: a save pointing a record at this one either landed before (and is seen here) or waits, then fails.
      for (const relation of referrers) {
        const referring = await trx
          .selectFrom('records')
          .select('id')
          .where('tenant_id', '=', tenant)
          .where('resource', '=', relation.resource)
          .where(this.engine.dialect.recordFieldIs(relation.foreignKey, id))
          .limit(1)
          .executeTakeFirst();
        if (referring) throw new ReferredRecordError(relation);
      }
      await trx
        .deleteFrom('deleted_records')
        .where('deleted_at', '<', now - RECORD_RESTORE_WINDOW_MS)
        .execute();
      await trx
        .insertInto('deleted_records')
        .values({ ...row, deleted_at: now })
        .execute();
      // Beside the deleted row, not in it: a host of an earlier release copies every column of that row back into
      // records when it restores (migrations.ts, step 18). Goes with the row, whichever host restores or lets it go.
      if (deletedBy !== null) {
        await trx.insertInto('deleted_record_deleters').values({ record_id: id, deleted_by: deletedBy }).execute();
      }
      await this.words.remove(trx, id);
      await trx.deleteFrom('records').where('id', '=', id).execute();
      return row;
    });
    if (!deleted) return undefined;
    this.engine.noteWrite();
    return toRecord(deleted);
  }

  /** Puts a record deleted less than RECORD_RESTORE_WINDOW_MS ago back, with its id; undefined when there is none. */
  async restore(
    tenant: string,
    resource: string,
    id: number,
    {
      referencesOf = () => [],
      now = Date.now(),
    }: { referencesOf?: (record: ResourceRecord) => readonly RecordReference[]; now?: number } = {},
  ): Promise<ResourceRecord | undefined> {
    const restored = await this.engine.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('deleted_records')
        .selectAll()
        .where('id', '=', id)
        .where('tenant_id', '=', tenant)
        .where('resource', '=', resource)
        .where('deleted_at', '>=', now - RECORD_RESTORE_WINDOW_MS)
        .executeTakeFirst();
      if (!row) return undefined;
      await this.assertReferencesExist(trx, tenant, referencesOf(toRecord(row)));
      // Back with the time it was made, and changed now: a client syncing the changes since a time finds it again.
      const { deleted_at: _deletedAt, ...record } = { ...row, updated_at: now };
      await trx.deleteFrom('deleted_records').where('id', '=', id).execute();
      await trx.insertInto('records').values(record).execute();
      await this.words.write(trx, id, recordWords(tenant, resource, JSON.parse(row.data) as JsonObject));
      return record;
    });
    if (!restored) return undefined;
    this.engine.noteWrite();
    return toRecord(restored);
  }

  async listDeleted(
    tenant: string,
    resource: string,
    { limit, before, now = Date.now() }: { limit: number; before?: { deletedAt: number; id: number }; now?: number },
  ): Promise<DeletedRecordEntry[]> {
    // Served by deleted_records_tenant_resource (migration 10), read backwards from the newest deletion (or `before`).
    let older = this.restorable(tenant, resource, now);
    if (before) {
      // A row-value comparison: both engines bound the index range by it (an OR of its two halves is a filter).
      older = older.where((eb) => eb(eb.refTuple('deleted_at', 'id'), '<', eb.tuple(before.deletedAt, before.id)));
    }
    const rows = await older.orderBy('deleted_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toDeletedEntry);
  }

  async getDeleted(
    tenant: string,
    resource: string,
    id: number,
    { now = Date.now() }: { now?: number } = {},
  ): Promise<DeletedRecordWithDeleter | undefined> {
    const row = await this.restorable(tenant, resource, now)
      .leftJoin('deleted_record_deleters', 'deleted_record_deleters.record_id', 'deleted_records.id')
      .select('deleted_record_deleters.deleted_by')
      .where('deleted_records.id', '=', id)
      .executeTakeFirst();
    return row ? { ...toDeletedEntry(row), deletedBy: row.deleted_by } : undefined;
  }

  /** The deleted records of the tenant and resource that `restore` can still bring back at `now`. */
  private restorable(tenant: string, resource: string, now: number) {
    return this.engine.db
      .selectFrom('deleted_records')
      .select(['id', 'data', 'deleted_at'])
      .where('tenant_id', '=', tenant)
      .where('resource', '=', resource)
      .where('deleted_at', '>=', now - RECORD_RESTORE_WINDOW_MS);
  }

  /** How many records `query`'s list holds: exact up to `bound`, `bound + 1` meaning more (see RecordPager.count). */
  countPage(tenant: string, resource: string, query: RecordPageQuery, bound: number): Promise<number> {
    return this.pager.count(tenant, resource, query, bound);
  }

  /**
   * Gives records their words at start-up, those of an older words version or without words, once whichever hosts
   * start together (RecordWordsBackfill). Returns how many records were indexed.
   */
  indexWords(
    announce: (start: WordsIndexingStart) => void | Promise<void> = () => undefined,
    lockWait?: AdvisoryLockWait,
  ): Promise<number> {
    return new RecordWordsBackfill(this.engine, this.words).run(announce, lockWait);
  }

  replace(tenant: string, resource: string, id: number, data: JsonObject): Promise<ResourceRecord | undefined> {
    return this.write(tenant, resource, id, data);
  }

  /**
   * Read, change, write back with a compare-and-set: the write only lands while the record still holds the data
   * that was read, else the change is made again on a fresh read. So two hosts changing different fields of one
   * record at the same moment both keep their field, on either engine, without holding a lock across the change.
   */
  async update(
    tenant: string,
    resource: string,
    id: number,
    change: (current: ResourceRecord) => JsonObject | Promise<JsonObject>,
    references: readonly RecordReference[] = [],
  ): Promise<ResourceRecord | undefined> {
    for (let attempt = 1; ; attempt++) {
      const read = await this.scoped(tenant, resource).where('id', '=', id).executeTakeFirst();
      if (!read) return undefined;
      const current = toRecord(read);
      const next = await change(current);
      // Nothing the record shows would change: nothing is written, so its updatedAt stays when it last changed.
      if (isDeepStrictEqual(toRecord({ id, data: JSON.stringify(withoutId(next)) }), current)) return current;
      const written = await this.write(tenant, resource, id, next, read.data, references);
      if (written) return written;
      // Each miss means another write landed: only a record changed without pause outlasts the attempts.
      if (attempt >= UPDATE_ATTEMPTS) throw new HttpError('unavailable', RECORD_BUSY_MESSAGE);
    }
  }

  /** Writes the record's data; only while it still holds `expected` when given. Undefined when nothing was written. */
  private async write(
    tenant: string,
    resource: string,
    id: number,
    data: JsonObject,
    expected?: string,
    references: readonly RecordReference[] = [],
  ): Promise<ResourceRecord | undefined> {
    const kept = withoutId(data);
    const stored = JSON.stringify(kept);
    const written = await this.engine.db.transaction().execute(async (trx) => {
      await this.assertReferencesExist(trx, tenant, references);
      let update = trx
        .updateTable('records')
        .set({ data: stored, updated_at: Date.now() })
        .where('id', '=', id)
        .where('tenant_id', '=', tenant)
        .where('resource', '=', resource);
      if (expected !== undefined) update = update.where('data', '=', expected);
      const times = await update.returning(['created_at', 'updated_at']).executeTakeFirst();
      if (!times) return undefined;
      await this.words.write(trx, id, recordWords(tenant, resource, kept));
      return times;
    });
    if (!written) return undefined;
    this.engine.noteWrite();
    return toRecord({ id, data: stored, ...written });
  }

  /**
   * Throws MissingReferencesError when a record of `references` is not in the tenant. On PostgreSQL each found row
   * stays share-locked until the transaction ends, so its delete (which locks it for update, see delete) waits for
   * the write and then sees it; SQLite runs one transaction at a time on its one connection.
   */
  private async assertReferencesExist(
    trx: Kysely<AppSchema>,
    tenant: string,
    references: readonly RecordReference[],
  ): Promise<void> {
    const missing: RecordReference[] = [];
    for (const reference of references) {
      const found = await this.locked(
        trx
          .selectFrom('records')
          .select('id')
          .where('id', '=', reference.id)
          .where('tenant_id', '=', tenant)
          .where('resource', '=', reference.resource),
        'share',
      ).executeTakeFirst();
      if (!found) missing.push(reference);
    }
    if (missing.length > 0) throw new MissingReferencesError(missing);
  }

  /** A row lock on what `query` reads, on PostgreSQL (SQLite has none, and needs none: see assertReferencesExist). */
  private locked<Q extends { forShare(): Q; forUpdate(): Q }>(query: Q, mode: 'share' | 'update'): Q {
    if (this.engine.kind === 'sqlite') return query;
    return mode === 'share' ? query.forShare() : query.forUpdate();
  }

  changeStamp(): string | Promise<string> {
    return this.engine.changeStamp();
  }

  /** The times read in the same row as the record (so never newer or older than its data): see record-times.ts. */
  timesOf(record: ResourceRecord): RecordTimes | undefined {
    return keptTimes(record);
  }
}

function withoutId(data: JsonObject): JsonObject {
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(data)) if (key !== 'id') copy[key] = value;
  return copy;
}

/** Row of deleted_records -> what the deleted records list (DeletedRecordsPayload) holds. */
function toDeletedEntry(row: RecordRow & { deleted_at: number }): DeletedRecordEntry {
  return {
    record: toRecord(row),
    deletedAt: row.deleted_at,
    restorableUntil: row.deleted_at + RECORD_RESTORE_WINDOW_MS,
  };
}

/**
 * Row -> API record: `id` first, then the data; `title` and `label` always strings; `group` only when set. The row's
 * times, when read, go beside it (keepTimes).
 */
function toRecord(row: RecordRow): ResourceRecord {
  const data = JSON.parse(row.data) as JsonObject;
  const record: ResourceRecord = {
    id: row.id,
    title: typeof data.title === 'string' ? data.title : '',
    label: typeof data.label === 'string' ? data.label : '',
  };
  for (const [key, value] of Object.entries(data)) {
    if (key === 'id' || key === 'title' || key === 'label') continue;
    if (key === 'group' && (value === null || value === '')) continue;
    record[key] = value;
  }
  return keepTimes(record, row);
}
