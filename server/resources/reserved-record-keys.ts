import { ResourceDefinitionError } from './resource-definition-error';

/**
 * Keys a belongsTo relation may not keep its related record's id under, each with why and what to do instead: the API
 * fills `id` itself. Field names get the same refusals from Field; a relation's key reaches records through no Field
 * check. A field or key named `tenant` is allowed: records are kept per tenant by a column of their own, so a
 * resource's "tenant" (a flat's, say) collides with nothing.
 */
const RESERVED_RECORD_KEYS: ReadonlyMap<string, string> = new Map([
  [
    'id',
    'every record carries its own id there, put by the API: the key would read as the record itself. Give it ' +
      'another name, such as "authorId"',
  ],
]);

/**
 * Throws, naming the resource and what to rename, when `key` is a name no record may keep a value under:
 * `holder` says what uses it (`the key "id" of relation "author"`).
 */
export function assertRecordKeyAllowed(resource: string, key: string, holder: string): void {
  const reason = RESERVED_RECORD_KEYS.get(key);
  if (reason !== undefined) {
    throw new ResourceDefinitionError(`Resource "${resource}": ${holder} cannot be used: ${reason}.`);
  }
  // Every object has these (`constructor`, `toString`…): a record without the key would seem to hold a function, as
  // Field refuses for the names of ordinary fields; a relation's key reaches records through no Field check.
  if (key in Object.prototype) {
    throw new ResourceDefinitionError(
      `Resource "${resource}": ${holder} cannot be used: every JavaScript object has a "${key}", so a record ` +
        'without it would seem to hold one. Choose another name.',
    );
  }
}
