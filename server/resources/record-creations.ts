import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { JsonObject, ResourceRecord } from '../../shared';
import type { AppSchema } from '../storage/app-schema';
import type { CreationKey, KeyedCreation, RecordReference } from './record-source';

/**
 * A create made once per Idempotency-Key. A page whose create was made but whose answer was lost (the connection
 * dropped, the host restarted behind the proxy) cannot tell it from a create never made; pressed again, it would
 * make the record twice. Sent again with the key of the first press, the create answers the record that press made.
 */

/** How long a key answers its record: far beyond any retry, short enough that the table stays small. */
export const RECORD_CREATION_KEY_MS = 24 * 60 * 60 * 1000;

/** A key: 1 to 200 visible ASCII characters (a UUID is 36). */
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

export const RECORD_CREATION_MESSAGES = {
  invalidKey: 'Idempotency-Key must be 1 to 200 visible ASCII characters.',
  keyReused: (id: number) =>
    `This Idempotency-Key already created record #${id} with other values: send a new key for a new record.`,
};

/** The key sent again with other values: a client bug, or two creates given the same key. */
export class CreationKeyReusedError extends Error {
  constructor(readonly recordId: number) {
    super(RECORD_CREATION_MESSAGES.keyReused(recordId));
    this.name = 'CreationKeyReusedError';
  }
}

/** The key of a request's header; undefined without one; null when it is not a valid key. */
export function creationKeyOf(header: string | undefined): string | undefined | null {
  if (header === undefined) return undefined;
  return KEY_PATTERN.test(header) ? header : null;
}

/** What a create makes, as a digest: the same values sent again (in any key order) give the same digest. */
function requestHash(data: JsonObject, references: readonly RecordReference[]): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([name, inner]) => [name, sorted(inner)]),
          )
        : value;
  const references_ = references.map(({ field, resource, id }) => [field, resource, id]);
  return createHash('sha256')
    .update(JSON.stringify([sorted(data), references_]))
    .digest('base64url');
}

/**
 * Creates with `insert` in `trx` unless `creation` already created a record of `resource`, then answers that one
 * (`read` fetches it). The key's row is written before the record: on PostgreSQL a second create with the same key at
 * the same moment waits on the first's row, and finds its record once the first commits; on SQLite the transactions
 * run one after the other. Keys older than RECORD_CREATION_KEY_MS are let go here, so the table holds about a day of
 * keyed creates.
 */
export async function createOnce(
  trx: Kysely<AppSchema>,
  scope: { tenant: string; resource: string; now?: number },
  creation: CreationKey,
  made: { data: JsonObject; references: readonly RecordReference[] },
  insert: () => Promise<ResourceRecord>,
  read: (id: number) => Promise<ResourceRecord | undefined>,
): Promise<KeyedCreation> {
  const { tenant, resource, now = Date.now() } = scope;
  const hash = requestHash(made.data, made.references);
  await trx
    .deleteFrom('record_creations')
    .where('created_at', '<', now - RECORD_CREATION_KEY_MS)
    .execute();
  const claimed = await trx
    .insertInto('record_creations')
    .values({
      tenant_id: tenant,
      resource,
      user_id: creation.userId,
      key: creation.key,
      request_hash: hash,
      record_id: null,
      created_at: now,
    })
    .onConflict((conflict) => conflict.columns(['tenant_id', 'resource', 'user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (claimed) {
    const record = await insert();
    await trx
      .updateTable('record_creations')
      .set({ record_id: record.id })
      .where('tenant_id', '=', tenant)
      .where('resource', '=', resource)
      .where('user_id', '=', creation.userId)
      .where('key', '=', creation.key)
      .execute();
    return { id: record.id, replayed: false, record };
  }
  const earlier = await trx
    .selectFrom('record_creations')
    .select(['request_hash', 'record_id'])
    .where('tenant_id', '=', tenant)
    .where('resource', '=', resource)
    .where('user_id', '=', creation.userId)
    .where('key', '=', creation.key)
    .executeTakeFirstOrThrow();
  // Written in the claiming transaction, so set once that one committed.
  const id = Number(earlier.record_id);
  if (earlier.request_hash !== hash) throw new CreationKeyReusedError(id);
  return { id, replayed: true, record: await read(id) };
}
