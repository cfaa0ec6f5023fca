import type { Kysely } from 'kysely';
import type { Tenant } from '../../shared';
import type { AppSchema } from '../storage/app-schema';
import { StampedCache } from '../storage/stamped-cache';
import type { StorageEngine } from '../storage/storage-engine';

/** Tenants and who belongs to them, on either engine. Lists come in the order the tenants were created. */
export class TenantStore {
  /** Memberships by user id, as every signed-in request reads them. */
  private readonly memberships: StampedCache<number, readonly Tenant[]>;

  constructor(private readonly engine: StorageEngine) {
    this.memberships = new StampedCache(() => engine.changeStamp());
  }

  list(db: Kysely<AppSchema> = this.engine.db): Promise<Tenant[]> {
    return db.selectFrom('tenants').select(['id', 'name']).orderBy(this.engine.dialect.tenantCreationOrder).execute();
  }

  get(id: string, db: Kysely<AppSchema> = this.engine.db): Promise<Tenant | undefined> {
    return db.selectFrom('tenants').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  }

  /** Creates the tenant, or renames it. */
  async save(tenant: Tenant, db: Kysely<AppSchema> = this.engine.db): Promise<void> {
    await db
      .insertInto('tenants')
      .values({ id: tenant.id, name: tenant.name })
      .onConflict((conflict) => conflict.column('id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })))
      .execute();
    this.engine.noteWrite();
  }

  /** The user's tenants, from a cache that any committed write empties (a removed membership counts at once). */
  tenantsOf(userId: number): Promise<readonly Tenant[]> {
    return this.memberships.get(userId, this.loadTenantsOf);
  }

  private readonly loadTenantsOf = async (userId: number): Promise<readonly Tenant[]> => {
    const rows = await this.engine.db
      .selectFrom('memberships')
      .innerJoin('tenants', 'tenants.id', 'memberships.tenant_id')
      .select(['tenants.id', 'tenants.name'])
      .where('memberships.user_id', '=', userId)
      .orderBy(this.engine.dialect.tenantCreationOrder)
      .execute();
    return Object.freeze(rows.map((tenant) => Object.freeze(tenant)));
  };

  /** Makes the user a member of exactly these tenants (all must exist). */
  async setMemberships(userId: number, tenantIds: readonly string[]): Promise<void> {
    await this.engine.db.transaction().execute(async (db) => {
      await db.deleteFrom('memberships').where('user_id', '=', userId).execute();
      for (const tenantId of tenantIds) await this.addMembership(userId, tenantId, db);
    });
    this.engine.noteWrite();
  }

  async addMembership(userId: number, tenantId: string, db: Kysely<AppSchema> = this.engine.db): Promise<void> {
    await db
      .insertInto('memberships')
      .values({ user_id: userId, tenant_id: tenantId })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    this.engine.noteWrite();
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
