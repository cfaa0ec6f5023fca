import {
  isPlainObject,
  RECORD_BULK_MAX,
  type BulkRecordRequest,
  type BulkRecordResult,
  type RecordUpdateRequest,
  type ResourceRecord,
} from '../../shared';
import { HttpError } from '../http/http-error';
import { isRecordId } from './record-id';

export const RECORD_BULK_MESSAGES = {
  body: `Send { "action": "delete" | "update", "ids": [record ids], "values": {…} for update }.`,
  ids: `ids must list from 1 to ${RECORD_BULK_MAX} distinct record ids.`,
  values: 'An update needs values: an object of field values.',
} as const;

/** Reads the body of `POST .../records/bulk`; anything malformed is a 400 for the whole request. */
export function parseBulkRequest(body: unknown): BulkRecordRequest {
  if (!isPlainObject(body)) throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.body);
  const { action, ids, values } = body;
  if (action !== 'delete' && action !== 'update') throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.body);
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > RECORD_BULK_MAX ||
    !ids.every((id) => isRecordId(id)) ||
    new Set(ids).size !== ids.length
  ) {
    throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.ids);
  }
  const checkedIds = ids as number[];
  if (action === 'delete') return { action, ids: checkedIds };
  if (!isPlainObject(values)) throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.values);
  // A parsed JSON body: every value is JSON.
  return { action, ids: checkedIds, values: values as RecordUpdateRequest };
}

/**
 * Runs `change` on each id in turn, each on its own (a record refused does not undo the others): one result per id,
 * the record on success, the error body the single-record route would have answered otherwise. Errors other than
 * HttpError (the database failing) end the request as usual, with the records done so far done.
 */
export async function runBulk(
  ids: readonly number[],
  change: (id: number) => Promise<ResourceRecord>,
): Promise<BulkRecordResult[]> {
  const results: BulkRecordResult[] = [];
  for (const id of ids) {
    try {
      results.push({ id, ok: true, record: await change(id) });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      results.push({ id, ok: false, error: error.toBody().error });
    }
  }
  return results;
}
