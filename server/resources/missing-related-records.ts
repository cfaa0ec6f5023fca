import { isPlainObject } from '../../shared';
import { HttpError } from '../http/http-error';
import { isRecordId } from './record-id';
import type { MissingReferencesError, RecordReference, RecordSource } from './record-source';
import type { RegisteredResource, RegisteredResources } from './registered-resource';
import { FIELD_MESSAGES, INVALID_RECORD_MESSAGE } from './validate-record-update';

/**
 * The relation fields of an update (`body`) that name a record the tenant does not have in the related resource
 * (deleted, of another tenant, or never made), each with its message: what validateRecordUpdate reports with the
 * update's other problems. Asked before the update, to answer with every problem at once; the write itself is given
 * the same records as references (relatedReferences), checked again in its transaction, so a delete landing between
 * the two refuses the write (missingReferencesRefusal) instead of leaving a record pointing at a deleted one.
 */
export async function missingRelatedRecords(
  resources: RegisteredResources,
  records: RecordSource,
  tenant: string,
  resource: RegisteredResource,
  body: unknown,
): Promise<Record<string, string>> {
  const missing = Object.create(null) as Record<string, string>;
  // A value that is not an id at all is no reference: validateRecordUpdate says so.
  await Promise.all(
    relatedReferences(resource, body).map(async ({ field, resource: related, id }) => {
      if (await records.get(tenant, related, id)) return;
      const recordLabel = resources.get(related)?.definition.recordLabel ?? 'record';
      missing[field] = FIELD_MESSAGES.noRelatedRecord(recordLabel, id);
    }),
  );
  return missing;
}

/** The records the relation fields of `body` point at: what a write of it is given to check (RecordReference). */
export function relatedReferences(resource: RegisteredResource, body: unknown): RecordReference[] {
  if (!isPlainObject(body)) return [];
  const references: RecordReference[] = [];
  for (const field of resource.fields.values()) {
    if (field.input !== 'relation' || field.resource === undefined || !Object.hasOwn(body, field.name)) continue;
    const id = body[field.name];
    if (isRecordId(id)) references.push({ field: field.name, resource: field.resource, id });
  }
  return references;
}

/** The 400 a write refused by its references answers: the fields' messages, as missingRelatedRecords gives them. */
export function missingReferencesRefusal(resources: RegisteredResources, error: MissingReferencesError): HttpError {
  const fields: Record<string, string> = {};
  for (const { field, resource, id } of error.references) {
    fields[field] = FIELD_MESSAGES.noRelatedRecord(resources.get(resource)?.definition.recordLabel ?? 'record', id);
  }
  return HttpError.invalidRequest(INVALID_RECORD_MESSAGE, fields);
}
