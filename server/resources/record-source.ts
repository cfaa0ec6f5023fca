import type { JsonObject, ResourceRecord } from '../../shared';

/** Where the records of every resource live, always scoped by tenant. */
export interface RecordSource {
  list(tenant: string, resource: string): Promise<ResourceRecord[]>;
  get(tenant: string, resource: string, id: number): Promise<ResourceRecord | undefined>;
  /** Records whose data has `key` equal to `value` (the "many" side of a relation). */
  findBy(tenant: string, resource: string, key: string, value: number | string): Promise<ResourceRecord[]>;
  count(tenant: string, resource: string): Promise<number>;
  insert(tenant: string, resource: string, data: JsonObject): Promise<ResourceRecord>;
  /** Replaces the data of a record; undefined when the tenant has no such record. */
  replace(tenant: string, resource: string, id: number, data: JsonObject): Promise<ResourceRecord | undefined>;
  /** Changes whenever any record may have changed, here or in another process or host (StorageEngine.changeStamp). */
  changeStamp(): string | Promise<string>;
}
