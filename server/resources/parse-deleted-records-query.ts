import { DELETED_RECORDS_LIMIT } from '../../shared';
import { HttpError } from '../http/http-error';

export const DELETED_RECORDS_MESSAGES = {
  limit: `limit must be a whole number from 1 to ${DELETED_RECORDS_LIMIT.max}.`,
  unknownParameter: (name: string) => `Unknown parameter "${name}": the deleted records take only limit.`,
} as const;

/** Reads `GET /api/resources/:name/records/deleted?…` (DeletedRecordsPayload); anything wrong is a 400 naming it. */
export function parseDeletedRecordsQuery(query: Record<string, unknown>): { limit: number } {
  for (const name of Object.keys(query)) {
    if (name !== 'limit') throw HttpError.invalidRequest(DELETED_RECORDS_MESSAGES.unknownParameter(name));
  }
  const text = query.limit;
  if (text === undefined) return { limit: DELETED_RECORDS_LIMIT.default };
  const limit = typeof text === 'string' && /^\d{1,3}$/.test(text) ? Number(text) : 0;
  if (limit < 1 || limit > DELETED_RECORDS_LIMIT.max) throw HttpError.invalidRequest(DELETED_RECORDS_MESSAGES.limit);
  return { limit };
}
