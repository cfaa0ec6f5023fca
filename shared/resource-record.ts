/**
 * A record as the wire carries it, alone: the resource API's answers (resource-wire.ts) and the error body
 * (errors.ts: `deletedRecord`, `storedRecord`) both carry records, and the error body is imported by the resource
 * API's bulk results, so these types sit below both, which import them one way.
 */
import type { JsonValue } from './json';

/** A record as the API returns it. `title` and `label` always; `group` when the record has one. */
export interface ResourceRecord {
  id: number;
  title: string;
  label: string;
  group?: string;
  [field: string]: JsonValue | undefined;
}

/**
 * When a record was created and last changed, in epoch milliseconds, sent beside it (RecordPayload, RecordListPayload)
 * and never in it: a record's fields are named freely, so no name is left for them there. A save that changes
 * nothing leaves `updatedAt` as it was; a restore (the record back from its deletion) moves it.
 */
export interface RecordTimes {
  createdAt: number;
  updatedAt: number;
}

/**
 * The record a request named was deleted and can still be restored: sent in the error body of the 404 that a read
 * or a save of it answers (ErrorBody `deletedRecord`), so a page can lead to the resource's deleted records.
 */
export interface RestorableRecord {
  resource: string;
  id: number;
  restorableUntil: number;
}
