import {
  LastAdministratorError,
  lastAdministratorProblem,
  readAccessSnapshot,
  type AccessSnapshot,
} from '../auth/administrators';
import type { Tenant } from '../../shared';
import { FeatureFlagStore } from '../flags/feature-flag-store';
import { countTenantRecords, deleteTenantRecords } from '../resources/tenant-records';
import type { StorageEngine } from '../storage/storage-engine';
import { settleCanariesOf, type CanaryChanged, type CanaryEnded } from './tenant-canaries';

/** What a tenant holds of its own: what removing it deletes, and what refuses it without `withData`. */
export interface TenantData {
  records: number;
  /** Deleted records still restorable (deleted_records). */
  deletedRecords: number;
  /** Feature flag settings made for this tenant (`npm run flag -- set <name> on|off --tenant <id>`). */
  flagSettings: number;
}

/** What removing a tenant takes away (or would, for a plan). */
export interface TenantRemoval {
  id: string;
  name: string;
  data: TenantData;
  /** The usernames of its members, whose memberships of it go. */
  members: readonly string[];
  /** Those of its members left in no tenant: they are kept, and cannot sign in until given one. */
  leftWithoutTenant: readonly string[];
  /** The canaries that reach nobody without it, ended in the same transaction (tenant-canaries.ts). */
  canariesEnded: readonly CanaryEnded[];
  /** The canaries that go on for others, it taken out of their tenants in the same transaction (tenant-canaries.ts). */
  canariesLeft: readonly CanaryChanged[];
}

/** No tenant of that id: `known`, the tenants there are, for the message (unknown-tenants.ts). */
export class NoSuchTenantError extends Error {
  constructor(
    readonly id: string,
    readonly known: readonly Tenant[],
  ) {
    super(`There is no tenant "${id}". Nothing was changed.`);
    this.name = 'NoSuchTenantError';
  }
}

/** The tenant holds data and the removal did not say to delete it: nothing was changed. */
export class TenantHoldsDataError extends Error {
  constructor(readonly removal: TenantRemoval) {
    super(`Refused: tenant "${removal.id}" holds ${describeData(removal.data)}. Nothing was changed.`);
    this.name = 'TenantHoldsDataError';
  }
}

/**
 * The tenant's data in words, naming only what there is: `3 records, 2 feature flag settings`, not `…, 0 deleted
 * records still restorable, …` (a refusal listing what is not there had the operator look for it).
 */
export function describeData(data: TenantData): string {
  const count = (n: number, one: string, many: string) => (n === 0 ? [] : [`${n} ${n === 1 ? one : many}`]);
  const parts = [
    ...count(data.records, 'record', 'records'),
    ...count(data.deletedRecords, 'deleted record still restorable', 'deleted records still restorable'),
    ...count(data.flagSettings, 'feature flag setting', 'feature flag settings'),
  ];
  return parts.join(', ') || 'nothing';
}

export function holdsData(data: TenantData): boolean {
  return data.records + data.deletedRecords + data.flagSettings > 0;
}

/**
 * Removes a tenant in one exclusive transaction, all or nothing: its memberships (the accounts stay, those left in no
 * tenant are named), and, only with `withData`, what it holds (records with their word index and idempotency keys,
 * deleted records, its feature flag settings); holding any of it without `withData` is refused, with the counts.
 * Refused too when no account could administer after it (administrators.ts): an operator's only tenant going takes
 * their sign-in with it. `planOnly`: checks and counts, changes nothing (what a command shows before asking).
 *
 * Sessions working in the tenant move to their account's first tenant at their next request, as for any membership
 * removed (current-tenant.ts). Placement rules that name the tenant are not changed: a rule needing it then holds
 * for nobody (the placements editor warns of it, and refuses it once changed while still naming it); tenant:remove
 * names them (tenant-references.ts). A canary that reaches nobody without it (no share, no other tenant still there)
 * is ended in the same transaction, audited; one that goes on for others has it taken out of its list, audited, so
 * that a tenant made later with the same id is in no canary nobody chose for it.
 */
export async function removeTenant(
  engine: StorageEngine,
  id: string,
  { withData = false, planOnly = false }: { withData?: boolean; planOnly?: boolean } = {},
): Promise<TenantRemoval> {
  const removal = await engine.exclusive(async (db) => {
    // On PostgreSQL the exclusive lock is only the commands' own: a host keeps writing. The tenant's row locked FOR
    // UPDATE first makes a record (or a membership) being added there, which holds a key-share lock on it, be counted
    // once committed, and one added later wait and then fail for want of its tenant. Without it, a record committed
    // after the count went with the tenant (its foreign key cascades) though no --with-data was given. SQLite's
    // exclusive transaction already keeps every other writer out.
    const tenantRow = db.selectFrom('tenants').select(['id', 'name']).where('id', '=', id);
    const tenant = await (engine.kind === 'postgres' ? tenantRow.forUpdate() : tenantRow).executeTakeFirst();
    const before = await readAccessSnapshot(db, engine.dialect);
    if (!tenant) {
      throw new NoSuchTenantError(
        id,
        await db.selectFrom('tenants').select(['id', 'name']).orderBy(engine.dialect.tenantCreationOrder).execute(),
      );
    }
    const flags = new FeatureFlagStore(engine);
    const data: TenantData = { ...(await countTenantRecords(db, id)), flagSettings: await flags.countOfTenant(id, db) };
    const after = without(before, id);
    const members = before.accounts.filter((account) => before.memberships.get(account.user.id)?.has(id));
    const found: Omit<TenantRemoval, 'canariesEnded' | 'canariesLeft'> = {
      id: tenant.id,
      name: tenant.name,
      data,
      members: members.map((account) => account.user.username),
      leftWithoutTenant: members
        .filter((account) => (after.memberships.get(account.user.id)?.size ?? 0) === 0)
        .map((account) => account.user.username),
    };
    const problem = lastAdministratorProblem(before, after);
    if (problem !== null) throw new LastAdministratorError(problem);
    if (holdsData(data) && !withData) throw new TenantHoldsDataError({ ...found, canariesEnded: [], canariesLeft: [] });
    // After the checks: a refused removal changes no canary.
    const canaries = await settleCanariesOf(db, engine, id, before.tenantIds, planOnly);
    const settled = { ...found, canariesEnded: canaries.ended, canariesLeft: canaries.left };
    if (planOnly) return settled;

    await deleteTenantRecords(db, engine.kind, id);
    await flags.unsetTenant(id, db);
    await db.deleteFrom('memberships').where('tenant_id', '=', id).execute();
    await db.deleteFrom('tenants').where('id', '=', id).execute();
    return settled;
  });
  if (!planOnly) engine.noteWrite();
  return removal;
}

/** The snapshot as it would be without the tenant and its memberships. */
function without(snapshot: AccessSnapshot, tenantId: string): AccessSnapshot {
  const memberships = new Map<number, ReadonlyMap<string, string | null>>();
  for (const [userId, of] of snapshot.memberships) {
    const kept = new Map(of);
    kept.delete(tenantId);
    memberships.set(userId, kept);
  }
  return { ...snapshot, tenantIds: snapshot.tenantIds.filter((each) => each !== tenantId), memberships };
}
