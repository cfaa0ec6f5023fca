import { ResourceDefinitionError } from './resource-definition-error';

/**
 * Names a resource's records may not keep a value under (a field's name, a belongsTo relation's key), each with why
 * and what to do instead: the API fills `id` itself, and records are kept per tenant, the session's, so no record
 * holds its tenant. Field names that break the pattern, and a field named `id`, are refused by Field already.
 */
const RESERVED_RECORD_KEYS: ReadonlyMap<string, string> = new Map([
  [
    'id',
    'every record carries its own id there, put by the API: the key would read as the record itself. Give it ' +
      'another name, such as "authorId"',
  ],
  ...['tenant', 'tenantId', 'tenant_id'].map((name): [string, string] => [
    name,
    "records are kept per tenant, the signed-in session's, and no record holds its tenant: a value under " +
      `"${name}" would read as the record's tenant while being whatever an editor typed (another tenant's id ` +
      'there moves nothing, and shows nothing to that tenant). Give it a name of its own, such as "customer" or ' +
      '"organization"',
  ]),
]);

/**
 * Throws, naming the resource and what to rename, when `key` is a name no record may keep a value under:
 * `holder` says what uses it (`field "tenant"`, `relation "author" (belongsTo) uses "id" as its key, which`).
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
