import type { JsonObject, ResourceRecord } from '../../shared';

/** Where the records of every resource live, always scoped by tenant. */
export interface RecordSource {
  list(tenant: string, resource: string): ResourceRecord[];
  get(tenant: string, resource: string, id: number): ResourceRecord | undefined;
  /** Records whose data has `key` equal to `value` (the "many" side of a relation). */
  findBy(tenant: string, resource: string, key: string, value: number | string): ResourceRecord[];
  count(tenant: string, resource: string): number;
  insert(tenant: string, resource: string, data: JsonObject): ResourceRecord;
  /** Replaces the data of a record; undefined when the tenant has no such record. */
  replace(tenant: string, resource: string, id: number, data: JsonObject): ResourceRecord | undefined;
  /** Changes whenever any record may have changed: here at once, in another process from the next event-loop turn. */
  changeStamp(): string;
}
