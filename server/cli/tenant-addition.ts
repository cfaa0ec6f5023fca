import { refuseLosingLastAdministrator, type AccessSnapshot } from '../auth/administrators';
import type { Tenant } from '../../shared';
import type { StorageEngine } from '../storage/storage-engine';
import { TenantStore } from '../tenants/tenant-store';

/** What saving a tenant did: made it, renamed it, or found it as asked. */
export interface TenantAddition {
  tenant: Tenant;
  /** The tenant as it was; undefined when it was made. */
  before?: Tenant;
}

/** A tenant whose id differs from the one asked in case only: a second one beside it is rarely what was meant. */
export class TenantIdInCaseOnlyError extends Error {
  constructor(
    readonly id: string,
    readonly alike: Tenant,
  ) {
    super(`There is a tenant "${alike.id}": "${id}" differs from it in case only. Nothing was changed.`);
    this.name = 'TenantIdInCaseOnlyError';
  }
}

/** Another tenant has the name (case and spaces aside): staff tell tenants apart by their names. */
export class TenantNameTakenError extends Error {
  constructor(
    readonly id: string,
    readonly namesake: Tenant,
  ) {
    super(`Tenant "${namesake.id}" is already named ${JSON.stringify(namesake.name)}. Nothing was changed.`);
    this.name = 'TenantNameTakenError';
  }
}

/**
 * Creates the tenant, or renames it (`name` null: a new one is named by its id, an existing one keeps its name), in
 * one exclusive transaction with its checks: an id that differs from a tenant's in case only, and a name another
 * tenant has, are refused; a new tenant is refused with LastAdministratorError when no account could administer
 * after it (administrators.ts). A new tenant has no members, so there an account's own role applies: an operator by
 * its memberships' roles alone no longer holds releases:manage or placements:edit in every tenant. Checked in the
 * transaction that saves it, so that a demotion running alongside cannot pass on an administrator this takes away.
 */
export async function addTenant(engine: StorageEngine, id: string, name: string | null): Promise<TenantAddition> {
  const tenants = new TenantStore(engine);
  const addition = await engine.exclusive(async (db) => {
    const before = await tenants.get(id, db);
    const known = await tenants.list(db);
    const alike = before ? undefined : known.find((tenant) => sameLetters(tenant.id, id));
    if (alike) throw new TenantIdInCaseOnlyError(id, alike);
    const tenant = { id, name: name ?? before?.name ?? id };
    // Two tenants of one name are one entry twice in a member's switcher, and "in Globex" in a refusal names either.
    const namesake = known.find((each) => each.id !== id && sameLetters(each.name.trim(), tenant.name));
    if (namesake) throw new TenantNameTakenError(id, namesake);
    if (!before) await refuseLosingLastAdministrator(db, engine.dialect, (snapshot) => withTenant(snapshot, id));
    await tenants.save(tenant, db);
    return before ? { tenant, before } : { tenant };
  });
  engine.noteWrite();
  return addition;
}

/** The snapshot with a new tenant, of no members: every account's own role applies there. */
function withTenant(snapshot: AccessSnapshot, id: string): AccessSnapshot {
  return { ...snapshot, tenantIds: [...snapshot.tenantIds, id] };
}

/** Ids and names are told apart regardless of case, as usernames are. */
function sameLetters(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
