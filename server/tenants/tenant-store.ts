import type BetterSqlite3 from 'better-sqlite3';
import type { Tenant } from '../../shared';
import type { AppDatabase } from '../storage/app-database';
import { StampedCache } from '../storage/stamped-cache';

/** Tenants and who belongs to them. Lists come in the order the tenants were created. */
export class TenantStore {
  private readonly statements: {
    all: BetterSqlite3.Statement<[], Tenant>;
    byId: BetterSqlite3.Statement<[string], Tenant>;
    upsert: BetterSqlite3.Statement<[string, string]>;
    ofUser: BetterSqlite3.Statement<[number], Tenant>;
    addMember: BetterSqlite3.Statement<[number, string]>;
    removeMembers: BetterSqlite3.Statement<[number]>;
    usersWithoutTenant: BetterSqlite3.Statement<[], number>;
  };

  /** Memberships by user id, as every signed-in request reads them. */
  private readonly memberships: StampedCache<number, readonly Tenant[]>;

  constructor(private readonly database: AppDatabase) {
    const db = database.db;
    this.memberships = new StampedCache(() => database.turnChangeStamp());
    this.statements = {
      all: db.prepare('SELECT id, name FROM tenants ORDER BY rowid'),
      byId: db.prepare('SELECT id, name FROM tenants WHERE id = ?'),
      upsert: db.prepare(
        'INSERT INTO tenants (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name',
      ),
      ofUser: db.prepare(
        `SELECT t.id, t.name FROM memberships m JOIN tenants t ON t.id = m.tenant_id
         WHERE m.user_id = ? ORDER BY t.rowid`,
      ),
      addMember: db.prepare('INSERT INTO memberships (user_id, tenant_id) VALUES (?, ?) ON CONFLICT DO NOTHING'),
      removeMembers: db.prepare('DELETE FROM memberships WHERE user_id = ?'),
      usersWithoutTenant: db
        .prepare<[], number>('SELECT id FROM users WHERE id NOT IN (SELECT user_id FROM memberships) ORDER BY id')
        .pluck(),
    };
  }

  list(): Tenant[] {
    return this.statements.all.all();
  }

  get(id: string): Tenant | undefined {
    return this.statements.byId.get(id);
  }

  /** Creates the tenant, or renames it. */
  save(tenant: Tenant): void {
    this.statements.upsert.run(tenant.id, tenant.name);
    this.database.noteWrite();
  }

  /** The user's tenants, from a cache that any committed write empties (a removed membership counts at once). */
  tenantsOf(userId: number): readonly Tenant[] {
    return this.memberships.get(userId, this.loadTenantsOf);
  }

  private readonly loadTenantsOf = (userId: number): readonly Tenant[] =>
    Object.freeze(this.statements.ofUser.all(userId).map((tenant) => Object.freeze(tenant)));

  /** Makes the user a member of exactly these tenants (all must exist). */
  setMemberships(userId: number, tenantIds: readonly string[]): void {
    this.database.db.transaction(() => {
      this.statements.removeMembers.run(userId);
      for (const tenantId of tenantIds) this.statements.addMember.run(userId, tenantId);
    })();
    this.database.noteWrite();
  }

  addMembership(userId: number, tenantId: string): void {
    this.statements.addMember.run(userId, tenantId);
    this.database.noteWrite();
  }

  /** Accounts that belong to no tenant (created before any tenant existed). */
  usersWithoutTenant(): number[] {
    return this.statements.usersWithoutTenant.all();
  }
}
