import { restoreDeadlineInUtc } from '../../shared';
import { HttpError } from '../http/http-error';
import type { RecordSource } from './record-source';
import type { ResourceRegistry } from './resource-registry';

/** Referring records named in a refusal; more are counted, not named. */
const NAMED_REFERRERS = 5;

export const RECORD_DELETE_MESSAGES = {
  notAllowed: (label: string) => `${label} records cannot be deleted.`,
  /** `holders`: the referring records, counted and named per relation; `referring`: how many in all (the verb's number). */
  referred: (title: string, holders: readonly string[], referring: number) =>
    `“${title}” cannot be deleted: ${holders.join('; ')} still ${referring === 1 ? 'refers' : 'refer'} to it. ` +
    `Change or delete ${referring === 1 ? 'that one' : 'those'} first.`,
  relatedGone: (title: string, gone: readonly string[]) =>
    `“${title}” cannot be restored: it refers to ${gone.join(' and ')}, deleted since. Restore ${
      gone.length === 1 ? 'that record' : 'those records'
    } first.`,
  notRestorable: (recordLabel: string, id: number) =>
    `There is no deleted ${recordLabel} ${id} to restore: it was restored already, or deleted too long ago.`,
  /** A read of a record deleted within the window (404). */
  deleted: (recordLabel: string, title: string, listLabel: string, restorableUntil: number) =>
    `The ${recordLabel} “${title}” was deleted. It can be restored until ${restoreDeadlineInUtc(restorableUntil)} ` +
    `from Recently deleted, on the ${listLabel} list.`,
  /** A save of a record deleted since the form was opened (404): the form keeps the changes, to be saved again. */
  deletedMeanwhile: (recordLabel: string, title: string, listLabel: string, restorableUntil: number) =>
    `The ${recordLabel} “${title}” was deleted meanwhile, so your changes were not saved. Restore it from Recently ` +
    `deleted, on the ${listLabel} list (until ${restoreDeadlineInUtc(restorableUntil)}), then save again.`,
} as const;

/**
 * Refuses (409 `conflict`) the delete of a record that records of a relation still hold the id of, naming the first
 * of them per relation: a delete never orphans a record through the API. Asked before the delete to name them; the
 * delete checks again in its transaction (RecordSource.delete's referrers), for a save landing in between.
 */
export async function assertNotReferred(
  resources: ResourceRegistry,
  records: RecordSource,
  tenant: string,
  resource: string,
  record: { id: number; title: string },
): Promise<void> {
  const holders: string[] = [];
  let total = 0;
  for (const referrer of resources.referrersOf(resource)) {
    const referring = await records.findBy(tenant, referrer.resource, referrer.foreignKey, record.id);
    if (referring.length === 0) continue;
    total += referring.length;
    const named = referring.slice(0, NAMED_REFERRERS).map((each) => `“${each.title || `#${each.id}`}”`);
    const more = referring.length > named.length ? ` and ${referring.length - named.length} more` : '';
    // In the referring resource's words, as its list counts them: "1 person", "2 people" (recordLabel, label).
    const noun = referring.length === 1 ? referrer.recordLabel : referrer.label.toLowerCase();
    holders.push(`${referring.length.toLocaleString('en')} ${noun} (${named.join(', ')}${more})`);
  }
  if (holders.length === 0) return;
  throw new HttpError('conflict', RECORD_DELETE_MESSAGES.referred(record.title || `#${record.id}`, holders, total));
}
