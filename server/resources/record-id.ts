/**
 * The largest record id: PostgreSQL's INTEGER (32 bits, signed). SQLite would hold more, but both engines answer an
 * id beyond it alike (no such record), rather than PostgreSQL failing to compare the column with it.
 */
export const MAX_RECORD_ID = 2 ** 31 - 1;

/** A whole number that can be the id of a stored record. */
export function isRecordId(id: unknown): id is number {
  return typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= MAX_RECORD_ID;
}
