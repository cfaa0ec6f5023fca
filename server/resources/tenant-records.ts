import type { Kysely } from 'kysely';
import type { AppSchema } from '../storage/app-schema';
import type { StorageKind } from '../storage/storage-engine';
import { recordWordIndexFor } from './record-words';

/** What a tenant holds of records: the live ones, and the deleted ones still restorable. */
export interface TenantRecordCounts {
  records: number;
  deletedRecords: number;
}

/** Counts a tenant's records with `db` (a transaction's, when the count decides what it then deletes). */
export async function countTenantRecords(db: Kysely<AppSchema>, tenant: string): Promise<TenantRecordCounts> {
  const count = async (table: 'records' | 'deleted_records') => {
    const { n } = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenant)
      .executeTakeFirstOrThrow();
    return Number(n);
  };
  return { records: await count('records'), deletedRecords: await count('deleted_records') };
}

/**
 * Deletes every record of a tenant with what hangs on them: their words in the search index, their idempotency keys,
 * the deleted ones kept for restoring. Inside the caller's transaction (`db`), which says the tenant is going.
 */
export async function deleteTenantRecords(db: Kysely<AppSchema>, kind: StorageKind, tenant: string): Promise<void> {
  await recordWordIndexFor(kind).removeOfTenant(db, tenant);
  await db.deleteFrom('record_creations').where('tenant_id', '=', tenant).execute();
  await db.deleteFrom('records').where('tenant_id', '=', tenant).execute();
  await db.deleteFrom('deleted_records').where('tenant_id', '=', tenant).execute();
}
