import {
  RECORD_BULK_MAX,
  UNCHANGED_FIELDS_KEY,
  type BulkRecordPayload,
  type BulkRecordRequest,
  type ErrorBody,
  type JsonValue,
  type ResourceRecord,
} from '../../../shared';
import { ApiError, type ApiClient } from '../../core';

/** What undoing a bulk action came to: how many records are back, and a line per one that is not. */
export interface UndoOutcome {
  done: number;
  failures: string[];
}

/**
 * Sends `request` for `ids` in bulk requests of at most RECORD_BULK_MAX ids each (an action on every match of a list
 * may have reached up to RECORD_BULK_QUERY_MAX records), counting what came back done and saying why the rest did not
 * (`why`).
 */
async function inChunks(
  client: ApiClient,
  resource: string,
  ids: readonly number[],
  request: (ids: number[]) => BulkRecordRequest,
  titleOf: (id: number) => string,
  failed: string,
  why: Refusal,
): Promise<UndoOutcome> {
  const outcome: UndoOutcome = { done: 0, failures: [] };
  for (let start = 0; start < ids.length; start += RECORD_BULK_MAX) {
    try {
      const payload = await client.post<BulkRecordPayload>(
        `/api/resources/${encodeURIComponent(resource)}/records/bulk`,
        request(ids.slice(start, start + RECORD_BULK_MAX)),
      );
      for (const result of payload.results) {
        if (result.ok) outcome.done++;
        // A record changed since comes back as stored: named even when the page never showed it.
        else outcome.failures.push(`“${result.error.storedRecord?.title || titleOf(result.id)}”: ${why(result.error)}`);
      }
    } catch (error) {
      outcome.failures.push(error instanceof ApiError ? error.message : failed);
    }
  }
  return outcome;
}

/** Why the server refused a record: each field's own message when it names fields, else its message. */
export type Refusal = (error: ErrorBody['error']) => string;

/** The deleted records brought back (bulk `restore`), each with its id; `refusal` says why one was not. */
export function restoreRecords(
  client: ApiClient,
  resource: string,
  records: readonly ResourceRecord[],
  refusal: Refusal,
): Promise<UndoOutcome> {
  const titles = new Map(records.map((record) => [record.id, record.title || `#${record.id}`]));
  return inChunks(
    client,
    resource,
    records.map((record) => record.id),
    (ids) => ({ action: 'restore', ids }),
    (id) => titles.get(id) ?? `#${id}`,
    'Could not restore them.',
    refusal,
  );
}

/**
 * Field `field` set back on each record to its own earlier value: one update per value they had (most often one), each
 * only where the field still holds `setTo`, the value the action set (UNCHANGED_FIELDS_KEY, as the edit form saves):
 * a record someone changed since is left as it is, and said so with `changedTo`, given the value it holds now; one
 * refused for another reason (a required field it lacks) is said so with `refusal`.
 */
export async function revertField(
  client: ApiClient,
  resource: string,
  { field, setTo, previous }: { field: string; setTo: JsonValue; previous: ReadonlyMap<number, JsonValue> },
  titleOf: (id: number) => string,
  changedTo: (now: JsonValue) => string,
  refusal: Refusal,
): Promise<UndoOutcome> {
  const byValue = new Map<string, { value: JsonValue; ids: number[] }>();
  for (const [id, value] of previous) {
    const key = JSON.stringify(value);
    const group = byValue.get(key) ?? { value, ids: [] };
    group.ids.push(id);
    byValue.set(key, group);
  }
  const outcome: UndoOutcome = { done: 0, failures: [] };
  for (const { value, ids } of byValue.values()) {
    const part = await inChunks(
      client,
      resource,
      ids,
      (chunk) => ({
        action: 'update',
        ids: chunk,
        values: { [field]: value, [UNCHANGED_FIELDS_KEY]: { [field]: setTo } },
      }),
      titleOf,
      'Could not set the values back.',
      (error) => (error.storedRecord ? changedTo(error.storedRecord[field] ?? null) : refusal(error)),
    );
    outcome.done += part.done;
    outcome.failures.push(...part.failures);
  }
  return outcome;
}
