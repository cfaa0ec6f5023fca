import type { Kysely } from 'kysely';
import { FLAG_NAME_PATTERN, type Tenant } from '../../shared';
import type { AppSchema } from '../storage/app-schema';
import { StampedCache } from '../storage/stamped-cache';
import type { StorageEngine } from '../storage/storage-engine';

/** One stored setting: a flag on or off, globally (`tenant` null) or for one tenant. */
export interface FeatureFlagSetting {
  name: string;
  tenant: string | null;
  enabled: boolean;
}

export class InvalidFlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidFlagError';
  }
}

/** A setting for a tenant there is not (mistyped, or removed meanwhile): `known`, the tenants there are. Nothing was set. */
export class FlagTenantMissingError extends Error {
  constructor(
    readonly tenant: string,
    readonly known: readonly Tenant[],
  ) {
    super(`There is no tenant "${tenant}": flag settings were not changed.`);
    this.name = 'FlagTenantMissingError';
  }
}

/** The database's key for the global setting: the tenant column is never null, so the pair stays a primary key. */
const GLOBAL = '';

/**
 * Feature flags, in the database (both engines), set by operators (`npm run flag -- set …`): a flag is on for a
 * tenant when the tenant's own setting says so, else when the global one does; a flag never set is off. `visibleWhen`
 * rules read them (`{ "flags": [...] }`) on every `/meta` request, so the flags of a tenant are cached until the
 * database changes (a write here or on another host), as the signed-in user is.
 */
export class FeatureFlagStore {
  private readonly byTenant: StampedCache<string, ReadonlySet<string>>;

  constructor(private readonly engine: StorageEngine) {
    this.byTenant = new StampedCache(() => engine.changeStamp(), 10_000);
  }

  /** The flags on for `tenant` (null: the global settings only, as for a caller without a session). */
  enabledFor(tenant: string | null): Promise<ReadonlySet<string>> {
    return this.byTenant.get(tenant ?? GLOBAL, (key) => this.load(key));
  }

  /**
   * Sets a flag on or off, globally or for one tenant; a bad name throws InvalidFlagError, a tenant there is not
   * FlagTenantMissingError.
   *
   * A tenant's setting is checked and written in one exclusive transaction, the kind `tenant:remove` counts and deletes
   * a tenant's settings in: checked by the caller first, a setting made while the tenant was being removed landed after
   * the removal's count (or its commit) and outlived the tenant, nowhere to be seen but in `flag list`, and back in
   * force for a new tenant of that id.
   */
  async set(name: string, enabled: boolean, tenant: string | null = null): Promise<void> {
    checkFlagName(name);
    const now = Date.now();
    const write = (db: Kysely<AppSchema>) =>
      db
        .insertInto('feature_flags')
        .values({ name, tenant: tenant ?? GLOBAL, enabled: enabled ? 1 : 0, updated_at: now })
        .onConflict((conflict) =>
          conflict.columns(['name', 'tenant']).doUpdateSet({ enabled: enabled ? 1 : 0, updated_at: now }),
        )
        .execute();
    if (tenant === null) {
      await write(this.engine.db);
    } else {
      await this.engine.exclusive(async (db) => {
        const found = await db.selectFrom('tenants').select('id').where('id', '=', tenant).executeTakeFirst();
        if (!found) {
          const known = await db
            .selectFrom('tenants')
            .select(['id', 'name'])
            .orderBy(this.engine.dialect.tenantCreationOrder)
            .execute();
          throw new FlagTenantMissingError(tenant, known);
        }
        await write(db);
      });
    }
    this.engine.noteWrite();
  }

  /** Removes a setting (the tenant then follows the global one again); false when there was none. */
  async unset(name: string, tenant: string | null = null): Promise<boolean> {
    const result = await this.engine.db
      .deleteFrom('feature_flags')
      .where('name', '=', name)
      .where('tenant', '=', tenant ?? GLOBAL)
      .executeTakeFirst();
    const removed = Number(result.numDeletedRows) > 0;
    if (removed) this.engine.noteWrite();
    return removed;
  }

  /**
   * Every flag set at least once (on or off, globally or for a tenant), by name: the flags there are, which a
   * `visibleWhen` rule may name. A flag never set has no other trace: naming one is most likely a typo.
   */
  async names(): Promise<string[]> {
    const rows = await this.engine.db.selectFrom('feature_flags').select('name').distinct().orderBy('name').execute();
    return rows.map((row) => row.name);
  }

  /** Every setting, by name then tenant (global first). */
  async list(): Promise<FeatureFlagSetting[]> {
    const rows = await this.engine.db
      .selectFrom('feature_flags')
      .select(['name', 'tenant', 'enabled'])
      .orderBy('name')
      .orderBy('tenant')
      .execute();
    return rows.map((row) => ({
      name: row.name,
      tenant: row.tenant === GLOBAL ? null : row.tenant,
      enabled: row.enabled === 1,
    }));
  }

  /** How many settings were made for this tenant alone (`--tenant <id>`), read with `db` (a transaction's). */
  async countOfTenant(tenant: string, db: Kysely<AppSchema> = this.engine.db): Promise<number> {
    const { n } = await db
      .selectFrom('feature_flags')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant', '=', tenant)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Deletes the settings of this tenant alone, with `db` (the transaction removing the tenant, which notes the write). */
  async unsetTenant(tenant: string, db: Kysely<AppSchema>): Promise<void> {
    await db.deleteFrom('feature_flags').where('tenant', '=', tenant).execute();
  }

  private async load(tenant: string): Promise<ReadonlySet<string>> {
    const rows = await this.engine.db
      .selectFrom('feature_flags')
      .select(['name', 'tenant', 'enabled'])
      .where('tenant', 'in', tenant === GLOBAL ? [GLOBAL] : [GLOBAL, tenant])
      .execute();
    const state = new Map<string, boolean>();
    for (const row of rows.filter((row) => row.tenant === GLOBAL)) state.set(row.name, row.enabled === 1);
    for (const row of rows.filter((row) => row.tenant !== GLOBAL)) state.set(row.name, row.enabled === 1);
    return Object.freeze(new Set([...state].filter(([, on]) => on).map(([name]) => name)));
  }
}

export function checkFlagName(name: unknown): string {
  if (typeof name !== 'string' || !FLAG_NAME_PATTERN.test(name)) {
    throw new InvalidFlagError(
      `A flag name is lower-case kebab-case (${FLAG_NAME_PATTERN}), got ${JSON.stringify(name)}.`,
    );
  }
  return name;
}
