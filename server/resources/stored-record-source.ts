import type { Kysely } from 'kysely';
import type { JsonObject, ResourceRecord } from '../../shared';
import { HttpError } from '../http/http-error';
import type { AppSchema } from '../storage/app-schema';
import type { StorageEngine } from '../storage/storage-engine';
import { FIELD_NAME_PATTERN } from './field';
import type { RecordPage, RecordPageQuery } from './record-page-query';
import { RecordPager } from './record-pager';
import type { RecordSource } from './record-source';

/** Compare-and-set attempts of one update before it gives up (each failed one means another write landed). */
const UPDATE_ATTEMPTS = 50;

export const RECORD_BUSY_MESSAGE = 'The record is being changed by others at this moment. Try again shortly.';

interface RecordRow {
  id: number;
  data: string;
}

/**
 * Records in the `records` table of the storage engine (SQLite or PostgreSQL): one row per record, its field values
 * as JSON text.
 */
export class StoredRecordSource implements RecordSource {
  private readonly pager: RecordPager;

  constructor(private readonly engine: StorageEngine) {
    this.pager = new RecordPager(engine, toRecord);
  }

  private scoped(tenant: string, resource: string, db: Kysely<AppSchema> = this.engine.db) {
    return db
      .selectFrom('records')
      .select(['id', 'data'])
      .where('tenant_id', '=', tenant)
      .where('resource', '=', resource);
  }

  async list(tenant: string, resource: string, db?: Kysely<AppSchema>): Promise<ResourceRecord[]> {
    return (await this.scoped(tenant, resource, db).orderBy('id').execute()).map(toRecord);
  }

  page(tenant: string, resource: string, query: RecordPageQuery): Promise<RecordPage> {
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
    db: Kysely<AppSchema> = this.engine.db,
  ): Promise<ResourceRecord> {
    const now = Date.now();
    const stored = JSON.stringify(withoutId(data));
    const { id } = await db
      .insertInto('records')
      .values({ tenant_id: tenant, resource, data: stored, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    this.engine.noteWrite();
    return toRecord({ id, data: stored });
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
  ): Promise<ResourceRecord | undefined> {
    for (let attempt = 1; ; attempt++) {
      const read = await this.scoped(tenant, resource).where('id', '=', id).executeTakeFirst();
      if (!read) return undefined;
      const written = await this.write(tenant, resource, id, await change(toRecord(read)), read.data);
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
  ): Promise<ResourceRecord | undefined> {
    const stored = JSON.stringify(withoutId(data));
    let update = this.engine.db
      .updateTable('records')
      .set({ data: stored, updated_at: Date.now() })
      .where('id', '=', id)
      .where('tenant_id', '=', tenant)
      .where('resource', '=', resource);
    if (expected !== undefined) update = update.where('data', '=', expected);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    this.engine.noteWrite();
    return toRecord({ id, data: stored });
  }

  changeStamp(): string | Promise<string> {
    return this.engine.changeStamp();
  }
}

function withoutId(data: JsonObject): JsonObject {
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(data)) if (key !== 'id') copy[key] = value;
  return copy;
}

/** Row -> API record: `id` first, then the data; `title` and `label` always strings; `group` only when set. */
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
  return record;
}
