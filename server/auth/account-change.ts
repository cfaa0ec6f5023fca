import type { Kysely } from 'kysely';
import { isStaffPermission, type StaffPermission, type StaffRole, type Tenant } from '../../shared';
import type { AppSchema } from '../storage/app-schema';
import type { StorageEngine } from '../storage/storage-engine';
import { TenantStore } from '../tenants/tenant-store';
import { refuseLosingLastAdministrator, type AccessSnapshot } from './administrators';
import type { StaffUser } from './staff-user';
import { UserStore } from './user-store';

/** A change of an existing account; a part left out stays as it is. */
export interface AccountChange {
  /** A new password's hash: its sessions end. */
  passwordHash?: string;
  disabled?: boolean;
  /** Its own role; null: none (an editor). */
  role?: StaffRole | null;
  /** The permissions granted to it on top of its roles', given those granted now (names checked by the store). */
  grants?: (held: readonly StaffPermission[]) => readonly string[];
  /** Exactly these tenants, each with its membership's role (null: the account's own applies there). */
  memberships?: readonly { tenant: string; role: StaffRole | null }[];
}

/**
 * Makes the change in one exclusive transaction, all of it or nothing, refused with LastAdministratorError when no
 * account could administer after it (administrators.ts): disabling, demoting, a grant revoked or a membership's role
 * changed take that away as surely as a removal does, and with UnknownTenantsError when a tenant it names is not there
 * (removed while the command ran). False when there is no such account. `planOnly`: checks the same way, changes
 * nothing (what a command does before asking a password).
 */
export async function changeAccount(
  engine: StorageEngine,
  username: string,
  change: AccountChange,
  { planOnly = false }: { planOnly?: boolean } = {},
): Promise<boolean> {
  const users = new UserStore(engine);
  const changed = await engine.exclusive(async (db) => {
    const row = await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where(engine.dialect.usernameIs(username))
      .executeTakeFirst();
    if (!row) return false;
    await refuseUnknownTenants(engine, db, change);
    const before = await refuseLosingLastAdministrator(db, engine.dialect, (snapshot) =>
      changedSnapshot(snapshot, row.id, change),
    );
    if (planOnly) return true;

    if (change.passwordHash !== undefined) await users.upsert(row.username, change.passwordHash, undefined, db);
    const held = before.accounts.find((account) => account.user.id === row.id)?.user.grantedPermissions ?? [];
    await writeAccess(engine, db, row, change, held);
    return true;
  });
  if (changed && !planOnly) engine.noteWrite();
  return changed;
}

/**
 * Makes a new account with `passwordHash` and what `change` gives it (its role, grants, tenants), in one exclusive
 * transaction: a failure in between leaves no account, rather than one of no tenant, role or grant that the same
 * command then only changes. Refused with UnknownTenantsError as changeAccount is. Undefined, with nothing made, when
 * an account of that name exists (made by another command since the caller looked). A new account takes nobody's
 * access away, so no administrator is checked for.
 */
export async function createAccount(
  engine: StorageEngine,
  username: string,
  passwordHash: string,
  change: Omit<AccountChange, 'passwordHash' | 'disabled'>,
): Promise<StaffUser | undefined> {
  const users = new UserStore(engine);
  const created = await engine.exclusive(async (db) => {
    const taken = await db
      .selectFrom('users')
      .select('id')
      .where(engine.dialect.usernameIs(username))
      .executeTakeFirst();
    if (taken) return undefined;
    await refuseUnknownTenants(engine, db, change);
    const { user } = await users.upsert(username, passwordHash, undefined, db);
    await writeAccess(engine, db, user, change, []);
    return user;
  });
  if (created) engine.noteWrite();
  return created;
}

/** A tenant an account change names is not there: nothing was changed. `known`: the tenants there are. */
export class UnknownTenantsError extends Error {
  constructor(
    readonly unknown: readonly string[],
    readonly known: readonly Tenant[],
  ) {
    super(`Unknown tenant ${unknown.map((id) => `"${id}"`).join(', ')}. Nothing was changed.`);
    this.name = 'UnknownTenantsError';
  }
}

/**
 * Refuses memberships of tenants that are not there, read in the change's transaction: a command checks them first,
 * but one may be removed while it asks a password, and its foreign key then failed the change with no word of which.
 */
async function refuseUnknownTenants(
  engine: StorageEngine,
  db: Kysely<AppSchema>,
  change: Pick<AccountChange, 'memberships'>,
): Promise<void> {
  if (change.memberships === undefined) return;
  const known = await new TenantStore(engine).list(db);
  const unknown = change.memberships
    .map(({ tenant }) => tenant)
    .filter((tenant) => !known.some((each) => each.id === tenant));
  if (unknown.length > 0) throw new UnknownTenantsError(unknown, known);
}

/** Writes the account's role, grants and tenants as the change gives them, with `db`, a transaction's. */
async function writeAccess(
  engine: StorageEngine,
  db: Kysely<AppSchema>,
  account: { id: number; username: string },
  change: AccountChange,
  held: readonly StaffPermission[],
): Promise<void> {
  const users = new UserStore(engine);
  const tenants = new TenantStore(engine);
  if (change.disabled !== undefined) await users.setDisabled(account.username, change.disabled, db);
  if (change.role !== undefined) await users.setRole(account.username, change.role, db);
  if (change.grants !== undefined) await users.setGrantedPermissions(account.username, change.grants(held), db);
  if (change.memberships !== undefined) {
    await db.deleteFrom('memberships').where('user_id', '=', account.id).execute();
    for (const { tenant, role } of change.memberships) await tenants.addMembership(account.id, tenant, db, role);
  }
}

/** The snapshot as the change would leave it (a password changes nobody's access). */
export function changedSnapshot(snapshot: AccessSnapshot, userId: number, change: AccountChange): AccessSnapshot {
  const accounts = snapshot.accounts.map((account) => {
    if (account.user.id !== userId) return account;
    const { user } = account;
    const role = change.role;
    return {
      user: {
        ...user,
        roles: role === undefined ? user.roles : role === null ? [] : [role],
        grantedPermissions:
          change.grants === undefined
            ? user.grantedPermissions
            : change.grants(user.grantedPermissions).filter(isStaffPermission),
      },
      disabled: change.disabled ?? account.disabled,
    };
  });
  const memberships = new Map(snapshot.memberships);
  if (change.memberships !== undefined)
    memberships.set(userId, new Map(change.memberships.map(({ tenant, role }) => [tenant, role])));
  return { ...snapshot, accounts, memberships };
}
