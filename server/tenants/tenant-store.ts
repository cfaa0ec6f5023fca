import type { Kysely } from 'kysely';
import { isStaffRole, type StaffRole, type Tenant } from '../../shared';
import type { AppSchema } from '../storage/app-schema';
import { StampedCache } from '../storage/stamped-cache';
import type { StorageEngine } from '../storage/storage-engine';

/** A user's tenants and the role each membership carries (null: the account's own applies there). */
export interface Memberships {
  /** In the order the tenants were created. */
  readonly tenants: readonly Tenant[];
  /** Tenant id -> the membership's role, for the memberships that carry one. */
  readonly roles: ReadonlyMap<string, StaffRole>;
}

/** A membership to make: the tenant, and the role it carries there (none: the account's own applies). */
export interface MembershipChoice {
  tenant: string;
  role?: StaffRole | null;
}

/**
 * A tenant id a tenant is created with: a letter or digit, then letters, digits and `_.-`, at most 64 characters. Ids
 * go into `visibleWhen` rules, the session and the logs: plain words keep them readable and never need quoting.
 */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Why `id` makes no tenant, as `tenant:add` and `app.tenants.save` say it. */
export function notATenantId(id: string): string {
  return `${JSON.stringify(id)} is not a tenant id: a letter or digit, then letters, digits and _.- (at most 64).`;
}

/** The longest tenant name: a name is shown in the tenant switcher and in messages, beside other words. */
export const TENANT_NAME_MAX_LENGTH = 100;

/**
 * Why `name` makes no tenant name, or null: a name is printed by the commands (a terminal runs an escape sequence
 * in it) and shown in the page, so control characters and the marks that reverse text are refused, as is a name
 * longer than TENANT_NAME_MAX_LENGTH characters.
 */
export function tenantNameProblem(name: string): string | null {
  if (/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u.test(name)) {
    return 'A tenant name cannot hold control characters (a line break, a tab, an escape) or marks that reverse text.';
  }
  if ([...name].length > TENANT_NAME_MAX_LENGTH) {
    return `A tenant name is at most ${TENANT_NAME_MAX_LENGTH} characters long.`;
  }
  return null;
}

/** Tenants and who belongs to them, on either engine. Lists come in the order the tenants were created. */
export class TenantStore {
  /** Memberships by user id, as every signed-in request reads them. */
  private readonly memberships: StampedCache<number, Memberships>;

  constructor(private readonly engine: StorageEngine) {
    this.memberships = new StampedCache(() => engine.changeStamp());
  }

  list(db: Kysely<AppSchema> = this.engine.db): Promise<Tenant[]> {
    return db.selectFrom('tenants').select(['id', 'name']).orderBy(this.engine.dialect.tenantCreationOrder).execute();
  }

  get(id: string, db: Kysely<AppSchema> = this.engine.db): Promise<Tenant | undefined> {
    return db.selectFrom('tenants').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Creates the tenant, or renames it. A new id must be a tenant id (TENANT_ID_PATTERN), as `tenant:add` requires;
   * a tenant saved before this was checked keeps its id and may still be renamed. A new name must be a tenant name
   * (tenantNameProblem); one saved before keeps being saved.
   *
   * `within`: a transaction to save it in. The write is then signalled (StorageEngine.noteWrite) by the caller once it
   * commits, not here: a cache or reader woken inside the transaction would read the state from before it and keep it.
   */
  async save(tenant: Tenant, within?: Kysely<AppSchema>): Promise<void> {
    const db = within ?? this.engine.db;
    if (!TENANT_ID_PATTERN.test(tenant.id) && (await this.get(tenant.id, db)) === undefined) {
      throw new TypeError(notATenantId(tenant.id));
    }
    const nameProblem = tenantNameProblem(tenant.name);
    if (nameProblem !== null && (await this.get(tenant.id, db))?.name !== tenant.name) {
      throw new TypeError(`${nameProblem} Got ${JSON.stringify(tenant.name)} for tenant "${tenant.id}".`);
    }
    await db
      .insertInto('tenants')
      .values({ id: tenant.id, name: tenant.name })
      .onConflict((conflict) => conflict.column('id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })))
      .execute();
    if (!within) this.engine.noteWrite();
  }

  /** The user's tenants, from a cache that any committed write empties (a removed membership counts at once). */
  async tenantsOf(userId: number): Promise<readonly Tenant[]> {
    return (await this.membershipsOf(userId)).tenants;
  }

  /** The user's tenants with their memberships' roles, from the same cache. */
  membershipsOf(userId: number): Promise<Memberships> {
    return this.memberships.get(userId, this.loadMemberships);
  }

  private readonly loadMemberships = async (userId: number): Promise<Memberships> => {
    const rows = await this.engine.db
      .selectFrom('memberships')
      .innerJoin('tenants', 'tenants.id', 'memberships.tenant_id')
      .select(['tenants.id', 'tenants.name', 'memberships.role'])
      .where('memberships.user_id', '=', userId)
      .orderBy(this.engine.dialect.tenantCreationOrder)
      .execute();
    const roles = new Map<string, StaffRole>();
    for (const row of rows) if (isStaffRole(row.role)) roles.set(row.id, row.role);
    return Object.freeze({
      tenants: Object.freeze(rows.map(({ id, name }) => Object.freeze({ id, name }))),
      roles,
    });
  };

  /**
   * Makes the user a member of exactly these tenants (all must exist), each with the role given for it (none: the
   * account's own applies there).
   */
  async setMemberships(userId: number, memberships: readonly (string | MembershipChoice)[]): Promise<void> {
    await this.engine.db.transaction().execute(async (db) => {
      await db.deleteFrom('memberships').where('user_id', '=', userId).execute();
      for (const choice of memberships) {
        const { tenant, role = null } = typeof choice === 'string' ? { tenant: choice } : choice;
        await this.addMembership(userId, tenant, db, role);
      }
    });
    this.engine.noteWrite();
  }

  /**
   * Makes the user a member of the tenant, with that role there; an existing membership keeps its role. `within`: a
   * transaction to make it in, whose caller signals the write once it commits (as `save` says).
   */
  async addMembership(
    userId: number,
    tenantId: string,
    within?: Kysely<AppSchema>,
    role: StaffRole | null = null,
  ): Promise<void> {
    await (within ?? this.engine.db)
      .insertInto('memberships')
      .values({ user_id: userId, tenant_id: tenantId, role })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    if (!within) this.engine.noteWrite();
  }

  /** Sets the role of the user's membership of the tenant (null: none); false when they are no member of it. */
  async setMembershipRole(userId: number, tenantId: string, role: StaffRole | null): Promise<boolean> {
    const result = await this.engine.db
      .updateTable('memberships')
      .set({ role })
      .where('user_id', '=', userId)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    const changed = Number(result.numUpdatedRows) > 0;
    if (changed) this.engine.noteWrite();
    return changed;
  }

  /**
   * Every account's memberships at once, by user id (an account of no tenant is absent): what `npm run user:list`
   * and `tenant:list` print, read in one statement rather than one per account.
   */
  async everyMembership(): Promise<ReadonlyMap<number, Memberships>> {
    const rows = await this.engine.db
      .selectFrom('memberships')
      .innerJoin('tenants', 'tenants.id', 'memberships.tenant_id')
      .select(['memberships.user_id', 'tenants.id', 'tenants.name', 'memberships.role'])
      .orderBy(this.engine.dialect.tenantCreationOrder)
      .execute();
    const byUser = new Map<number, { tenants: Tenant[]; roles: Map<string, StaffRole> }>();
    for (const row of rows) {
      const memberships = byUser.get(row.user_id) ?? { tenants: [], roles: new Map<string, StaffRole>() };
      memberships.tenants.push({ id: row.id, name: row.name });
      if (isStaffRole(row.role)) memberships.roles.set(row.id, row.role);
      byUser.set(row.user_id, memberships);
    }
    return byUser;
  }

  /** Accounts that belong to no tenant (created before any tenant existed). */
  async usersWithoutTenant(db: Kysely<AppSchema> = this.engine.db): Promise<number[]> {
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where('id', 'not in', (eb) => eb.selectFrom('memberships').select('user_id'))
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  }
}
