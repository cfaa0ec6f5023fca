import type { Kysely } from 'kysely';
import type { CanaryRollout } from '../../shared';
import { changeRolloutIn, toRollout } from '../releases/release-store';
import type { AppSchema } from '../storage/app-schema';
import type { StorageEngine } from '../storage/storage-engine';

/** Who the audit trail names for a canary tenant:remove ended. */
export const TENANT_REMOVE_ACTOR = 'tenant:remove';

/** A canary ended with the removal of the last tenant it reached. */
export interface CanaryEnded {
  remote: string;
  version: string;
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
 * In the removal's transaction: ends every canary that reaches nobody once `id` is removed, each audited `canary-end`
 * by tenant:remove with the reason, as an operator's end is (the hosts stop serving it at their next poll); with
 * `planOnly`, only says which. Rows locked FOR UPDATE on PostgreSQL, where hosts keep writing: a canary an operator
 * changes meanwhile is decided on as it is then.
 */
export async function endCanariesReachingNobody(
  db: Kysely<AppSchema>,
  engine: Pick<StorageEngine, 'kind'>,
  id: string,
  tenantIds: readonly string[],
  planOnly: boolean,
): Promise<CanaryEnded[]> {
  const query = db.selectFrom('remote_rollouts').selectAll().where('canary_version', 'is not', null).orderBy('remote');
  const rows = await (engine.kind === 'postgres' ? query.forUpdate() : query).execute();
  const ended: CanaryEnded[] = [];
  for (const { remote, active, canary } of rows.map(toRollout)) {
    if (canary === null || !canary.tenants.includes(id) || !reachesNobodyWithout(canary, tenantIds, id)) continue;
    ended.push({ remote, version: canary.version });
    if (planOnly) continue;
    const reason =
      `tenant "${id}" removed: the canary gave no share of the users and named no tenant still there besides it, ` +
      'so it reached nobody';
    await changeRolloutIn(
      db,
      { remote, action: 'canary-end', actor: TENANT_REMOVE_ACTOR, next: { active, canary: null }, reason },
      Date.now(),
    );
  }
  return ended;
}
