import { DELETED_RECORDS_LIMIT } from '../../shared';
import { HttpError } from '../http/http-error';

export const DELETED_RECORDS_MESSAGES = {
  limit: `limit must be a whole number from 1 to ${DELETED_RECORDS_LIMIT.max}.`,
  before: 'before must be the "next" of a page of deleted records.',
  unknownParameter: (name: string) => `Unknown parameter "${name}": the deleted records take only limit and before.`,
} as const;

/** Where a page of deleted records starts: after (older than) this deletion. */
export interface DeletedRecordsCursor {
  deletedAt: number;
  id: number;
}

/**
 * The `next` of a page of deleted records: its last deletion's time and id (`1764250000000.42`). Plain, not sealed:
 * it names nothing the page did not show, and a hand-made one only pages from another point.
 */
export function deletedRecordsCursor(entry: DeletedRecordsCursor): string {
  return `${entry.deletedAt}.${entry.id}`;
}

/** Reads `GET /api/resources/:name/records/deleted?…` (DeletedRecordsPayload); anything wrong is a 400 naming it. */
export function parseDeletedRecordsQuery(query: Record<string, unknown>): {
  limit: number;
  before?: DeletedRecordsCursor;
} {
  for (const name of Object.keys(query)) {
    if (name !== 'limit' && name !== 'before') {
      throw HttpError.invalidRequest(DELETED_RECORDS_MESSAGES.unknownParameter(name));
    }
  }
  const text = query.limit;
  const limit =
    text === undefined
      ? DELETED_RECORDS_LIMIT.default
      : typeof text === 'string' && /^\d{1,3}$/.test(text)
        ? Number(text)
        : 0;
  if (limit < 1 || limit > DELETED_RECORDS_LIMIT.max) throw HttpError.invalidRequest(DELETED_RECORDS_MESSAGES.limit);
  if (query.before === undefined) return { limit };
  const cursor = typeof query.before === 'string' ? /^(\d{1,15})\.(\d{1,15})$/.exec(query.before) : null;
  if (!cursor) throw HttpError.invalidRequest(DELETED_RECORDS_MESSAGES.before);
  return { limit, before: { deletedAt: Number(cursor[1]), id: Number(cursor[2]) } };
}
