import type { Kysely } from 'kysely';
import { PLACEMENTS_EDIT, RELEASES_MANAGE, isStaffPermission, isStaffRole, type StaffPermission } from '../../shared';
import type { AppSchema } from '../storage/app-schema';
import type { EngineDialect } from '../storage/storage-engine';
import { accessIn } from './staff-access';
import type { StaffUser } from './staff-user';

/**
 * The permissions whose changes reach every tenant (releases, placements): administering the product, as far as it
 * has such a notion. Accounts themselves are managed by the commands, with access to the database, not by a role.
 */
export const ADMINISTERING_PERMISSIONS: readonly StaffPermission[] = [RELEASES_MANAGE, PLACEMENTS_EDIT];

/** What decides who may administer: every account, tenant and membership, read in one transaction. */
export interface AccessSnapshot {
  accounts: readonly { user: StaffUser; disabled: boolean }[];
  /** In the order the tenants were created. */
  tenantIds: readonly string[];
  /** user id -> tenant id -> the membership's role (null: the account's own applies). */
  memberships: ReadonlyMap<number, ReadonlyMap<string, string | null>>;
}

/** Reads the snapshot with `db` (a transaction's, so that what is checked is what the removal then changes). */
export async function readAccessSnapshot(db: Kysely<AppSchema>, dialect: EngineDialect): Promise<AccessSnapshot> {
  const users = await db
    .selectFrom('users')
    .select(['id', 'username', 'display_name', 'role', 'disabled_at'])
    .orderBy('username')
    .execute();
  const grants = await db.selectFrom('user_permissions').select(['user_id', 'permission']).execute();
  const tenants = await db.selectFrom('tenants').select('id').orderBy(dialect.tenantCreationOrder).execute();
  const rows = await db.selectFrom('memberships').select(['user_id', 'tenant_id', 'role']).execute();
  const memberships = new Map<number, Map<string, string | null>>();
  for (const row of rows)
    memberships.set(row.user_id, (memberships.get(row.user_id) ?? new Map()).set(row.tenant_id, row.role));
  return {
    accounts: users.map((row) => ({
      user: {
        id: row.id,
        username: row.username,
        displayName: row.display_name,
        // Not a session's: who may administer does not depend on the password.
        credentialStamp: '',
        roles: row.role === null ? [] : [row.role],
        grantedPermissions: grants
          .filter((grant) => grant.user_id === row.id)
          .map((grant) => grant.permission)
          .filter(isStaffPermission),
      },
      disabled: row.disabled_at !== null,
    })),
    tenantIds: tenants.map((tenant) => tenant.id),
    memberships,
  };
}

/**
 * For each administering permission, the usernames that can use it: enabled accounts of at least one tenant (an
 * account of none cannot sign in) holding it in every tenant, by the rule of tenantWithout (require-permission.ts):
 * their membership's role in each of their tenants, their own role in the others, their grants everywhere. A change
 * of releases or placements needs exactly that, so an account missing it in one tenant administers nothing.
 */
export function administrators(snapshot: AccessSnapshot): ReadonlyMap<StaffPermission, readonly string[]> {
  const holders = new Map<StaffPermission, string[]>(ADMINISTERING_PERMISSIONS.map((permission) => [permission, []]));
  for (const { user, disabled } of snapshot.accounts) {
    const own = snapshot.memberships.get(user.id);
    if (disabled || !own || own.size === 0) continue;
    for (const permission of ADMINISTERING_PERMISSIONS) {
      const everywhere = snapshot.tenantIds.every((tenant) => {
        const role = own.get(tenant);
        return accessIn(user, isStaffRole(role) ? role : null).permissions.includes(permission);
      });
      if (everywhere) holders.get(permission)?.push(user.username);
    }
  }
  return holders;
}

/**
 * Why a change that turns `before` into `after` would leave nobody to administer, or null: for each permission some
 * account could use before and none could after, what it manages. Installations that use no roles have no
 * administrator before, so nothing is refused there.
 */
export function lastAdministratorProblem(before: AccessSnapshot, after: AccessSnapshot): string | null {
  const was = administrators(before);
  const will = administrators(after);
  const lost = ADMINISTERING_PERMISSIONS.filter(
    (permission) => (was.get(permission) ?? []).length > 0 && (will.get(permission) ?? []).length === 0,
  );
  if (lost.length === 0) return null;
  const who = [...new Set(lost.flatMap((permission) => was.get(permission) ?? []))].map((name) => `"${name}"`);
  return (
    `${who.join(' and ')} ${who.length === 1 ? 'is' : 'are'} the last account${who.length === 1 ? '' : 's'} able to ` +
    `use ${lost.join(' and ')} (${lost.map(describe).join(' and ')}, for every tenant), and no account could after this`
  );
}

/**
 * Refuses, with LastAdministratorError, a change that would leave nobody to administer: `change` says what it makes of
 * the snapshot (a pure function). Call it with the db of the engine.exclusive transaction that then makes the change,
 * before changing anything: what is checked is what is changed, and of two commands racing, the second checks what the
 * first committed. The snapshot before, for what the caller reports.
 */
export async function refuseLosingLastAdministrator(
  db: Kysely<AppSchema>,
  dialect: EngineDialect,
  change: (before: AccessSnapshot) => AccessSnapshot,
): Promise<AccessSnapshot> {
  const before = await readAccessSnapshot(db, dialect);
  const problem = lastAdministratorProblem(before, change(before));
  if (problem !== null) throw new LastAdministratorError(problem);
  return before;
}

/** The change would leave nobody able to administer: nothing was changed. */
export class LastAdministratorError extends Error {
  constructor(readonly problem: string) {
    super(`Refused: ${problem}. Nothing was changed.`);
    this.name = 'LastAdministratorError';
  }
}

function describe(permission: StaffPermission): string {
  return permission === RELEASES_MANAGE ? 'manage the releases of remotes' : 'edit the placements';
}
