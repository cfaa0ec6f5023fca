import { isStaffPermission, type StaffPermission, type StaffRole } from '../../shared';
import type { StorageEngine } from '../storage/storage-engine';
import { TenantStore } from '../tenants/tenant-store';
import { refuseLosingLastAdministrator, type AccessSnapshot } from './administrators';
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
 * changed take that away as surely as a removal does. False when there is no such account. `planOnly`: checks the
 * same way, changes nothing (what a command does before asking a password).
 */
export async function changeAccount(
  engine: StorageEngine,
  username: string,
  change: AccountChange,
  { planOnly = false }: { planOnly?: boolean } = {},
): Promise<boolean> {
  const users = new UserStore(engine);
  const tenants = new TenantStore(engine);
  const changed = await engine.exclusive(async (db) => {
    const row = await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where(engine.dialect.usernameIs(username))
      .executeTakeFirst();
    if (!row) return false;
    const before = await refuseLosingLastAdministrator(db, engine.dialect, (snapshot) =>
      changedSnapshot(snapshot, row.id, change),
    );
    if (planOnly) return true;

    if (change.passwordHash !== undefined) await users.upsert(row.username, change.passwordHash, undefined, db);
    if (change.disabled !== undefined) await users.setDisabled(row.username, change.disabled, db);
    if (change.role !== undefined) await users.setRole(row.username, change.role, db);
    if (change.grants !== undefined) {
      const held = before.accounts.find((account) => account.user.id === row.id)?.user.grantedPermissions ?? [];
      await users.setGrantedPermissions(row.username, change.grants(held), db);
    }
    if (change.memberships !== undefined) {
      await db.deleteFrom('memberships').where('user_id', '=', row.id).execute();
      for (const { tenant, role } of change.memberships) await tenants.addMembership(row.id, tenant, db, role);
    }
    return true;
  });
  if (changed && !planOnly) engine.noteWrite();
  return changed;
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
