import type { Kysely } from 'kysely';
import type { CanaryRollout } from '../../shared';
import { changeRolloutIn, toRollout, type RolloutChange } from '../releases/release-store';
import type { AppSchema } from '../storage/app-schema';
import type { StorageEngine } from '../storage/storage-engine';

/** Who the audit trail names for a canary tenant:remove ended. */
export const TENANT_REMOVE_ACTOR = 'tenant:remove';

/** A canary tenant:remove changed: ended, or the tenant taken out of its list. */
export interface CanaryChanged {
  remote: string;
  version: string;
}

/** A canary ended with the removal of the last tenant it reached. */
export type CanaryEnded = CanaryChanged;

/** What the removal does to the canaries naming the tenant (tenant-removal.ts). */
export interface CanariesSettled {
  /** Those that reach nobody without the tenant: ended. */
  ended: readonly CanaryEnded[];
  /** Those that go on for others: the tenant taken out of their list. */
  left: readonly CanaryChanged[];
}

/**
 * Whether the canary reaches nobody once `id` is gone: it gives no share of the users, and none of its tenants but
 * `id` is still there (`tenantIds`: those there now). Such a canary ran on for ever: nothing else ends it (the canary
 * watch needs its page loads, and it has none), and the operator told to end it on the releases page often did not.
 */
export function reachesNobodyWithout(
  canary: Pick<CanaryRollout, 'percent' | 'tenants'>,
  tenantIds: readonly string[],
  id: string,
): boolean {
  return canary.percent === 0 && canary.tenants.every((tenant) => tenant === id || !tenantIds.includes(tenant));
}

/**
 * In the removal's transaction, every canary naming `id`: one that reaches nobody once `id` is removed is ended,
 * audited `canary-end` by tenant:remove with the reason, as an operator's end is (the hosts stop serving it at their
 * next poll); one that goes on for others has `id` taken out of its tenants, audited `canary` by tenant:remove with the
 * reason: kept in the list, it would reach a tenant made later with the same id, which nobody chose for the canary.
 * With `planOnly`, only says which. Rows locked FOR UPDATE on PostgreSQL, where hosts keep writing: a canary an
 * operator changes meanwhile is decided on as it is then.
 */
export async function settleCanariesOf(
  db: Kysely<AppSchema>,
  engine: Pick<StorageEngine, 'kind'>,
  id: string,
  tenantIds: readonly string[],
  planOnly: boolean,
): Promise<CanariesSettled> {
  const query = db.selectFrom('remote_rollouts').selectAll().where('canary_version', 'is not', null).orderBy('remote');
  const rows = await (engine.kind === 'postgres' ? query.forUpdate() : query).execute();
  const ended: CanaryEnded[] = [];
  const left: CanaryChanged[] = [];
  for (const { remote, active, canary } of rows.map(toRollout)) {
    if (canary === null || !canary.tenants.includes(id)) continue;
    const endIt = reachesNobodyWithout(canary, tenantIds, id);
    (endIt ? ended : left).push({ remote, version: canary.version });
    if (planOnly) continue;
    const change: RolloutChange = endIt
      ? {
          remote,
          action: 'canary-end',
          actor: TENANT_REMOVE_ACTOR,
          next: { active, canary: null },
          reason:
            `tenant "${id}" removed: the canary gave no share of the users and named no tenant still there besides ` +
            'it, so it reached nobody',
        }
      : {
          remote,
          action: 'canary',
          actor: TENANT_REMOVE_ACTOR,
          next: { active, canary: { ...canary, tenants: canary.tenants.filter((tenant) => tenant !== id) } },
          reason:
            `tenant "${id}" removed: taken out of the canary's tenants, so that a tenant made later with the id is ` +
            'not in a canary nobody chose for it',
        };
    await changeRolloutIn(db, change, Date.now());
  }
  return { ended, left };
}
