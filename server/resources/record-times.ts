import type { RecordTimes, ResourceRecord } from '../../shared';
import type { RecordSource } from './record-source';

/**
 * A record's times beside the record object a source returned, never among its fields (RecordTimes): the source
 * notes them as it builds the record from its row, the API reads them back from the same object, with no change to
 * the record itself or to the source's methods. Held weakly: gone with the record.
 */
const kept = new WeakMap<ResourceRecord, RecordTimes>();

/** Notes `record`'s times from its row; a row read without them (a deleted record's) notes none. */
export function keepTimes(record: ResourceRecord, row: { created_at?: number; updated_at?: number }): ResourceRecord {
  if (row.created_at !== undefined && row.updated_at !== undefined) {
    kept.set(record, { createdAt: Number(row.created_at), updatedAt: Number(row.updated_at) });
  }
  return record;
}

/** The times keepTimes noted for this very record object, if any. */
export function keptTimes(record: ResourceRecord): RecordTimes | undefined {
  return kept.get(record);
}

/** RecordPayload's `times`, as a spread: left out when the source keeps none. */
export function timesField(source: RecordSource, record: ResourceRecord): { times?: RecordTimes } {
  const times = source.timesOf?.(record);
  return times ? { times } : {};
}

/** RecordListPayload's `times`, as a spread: each record's by id; left out when the source keeps none. */
export function listTimesField(
  source: RecordSource,
  records: readonly ResourceRecord[],
): { times?: Record<string, RecordTimes> } {
  if (!source.timesOf) return {};
  const times: Record<string, RecordTimes> = {};
  for (const record of records) {
    const known = source.timesOf(record);
    if (known) times[record.id] = known;
  }
  return { times };
}
