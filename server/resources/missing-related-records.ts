import { isPlainObject } from '../../shared';
import { isRecordId } from './record-id';
import type { RecordSource } from './record-source';
import type { RegisteredResource, RegisteredResources } from './registered-resource';
import { FIELD_MESSAGES } from './validate-record-update';

/**
 * The relation fields of an update (`body`) that name a record the tenant does not have in the related resource
 * (deleted, of another tenant, or never made), each with its message: what validateRecordUpdate reports with the
 * update's other problems. Asked before the update, as the record store answers asynchronously; a delete of the
 * related record landing between the two leaves a record pointing at a deleted one, which its page shows without
 * it until the deleted record is restored (the delete guard refuses any later delete while records point at it).
 */
export async function missingRelatedRecords(
  resources: RegisteredResources,
  records: RecordSource,
  tenant: string,
  resource: RegisteredResource,
  body: unknown,
): Promise<Record<string, string>> {
  const missing = Object.create(null) as Record<string, string>;
  if (!isPlainObject(body)) return missing;
  await Promise.all(
    [...resource.fields.values()].map(async (field) => {
      if (field.input !== 'relation' || field.resource === undefined || !Object.hasOwn(body, field.name)) return;
      const id = body[field.name];
      if (!isRecordId(id)) return; // not an id at all: validateRecordUpdate says so
      if (await records.get(tenant, field.resource, id)) return;
      const recordLabel = resources.get(field.resource)?.definition.recordLabel ?? 'record';
      missing[field.name] = FIELD_MESSAGES.noRelatedRecord(recordLabel, id);
    }),
  );
  return missing;
}
