import type { Dashboard, DashboardCard, Tenant } from '../../shared';
import type { RecordSource } from '../resources/record-source';
import { checkNavigationName, NavigationDefinitionError } from './navigation-definition';

/** What a dashboard can read to compute its cards. */
export interface DashboardContext {
  tenant: Tenant;
  records: RecordSource;
}

export interface DashboardDefinition {
  name: string;
  label: string;
  /** The cards for one tenant. Computed from records only: the result is cached until records change. */
  cards(context: DashboardContext): DashboardCard[] | Promise<DashboardCard[]>;
}

/**
 * The dashboards (`dashboards` of GET /meta). Their JSON is cached per tenant and rebuilt only when the dashboards,
 * the tenant or any record changed (the record source's change stamp also moves for writes by other processes).
 */
export class DashboardRegistry {
  private readonly dashboards: DashboardDefinition[] = [];
  private version = 0;
  private readonly cache = new Map<string, { version: number; stamp: string; tenantName: string; json: string }>();
  private buildCount = 0;

  constructor(private readonly records: RecordSource) {}

  get builds(): number {
    return this.buildCount;
  }

  register(definition: DashboardDefinition): void {
    const { name, label, cards } = definition;
    checkNavigationName('Dashboard', name, label, this.dashboards);
    if (typeof cards !== 'function')
      throw new NavigationDefinitionError(`Dashboard "${name}" needs a cards(context) function.`);
    this.dashboards.push(definition);
    this.version++;
    this.cache.clear();
  }

  /** `[...]` of every dashboard for this tenant, as JSON text. */
  json(tenant: Tenant): Promise<string> {
    const stamp = this.records.changeStamp();
    // SQLite's stamp is a string: a cached answer costs no extra turn of the promise queue.
    return typeof stamp === 'string'
      ? this.jsonAt(tenant, stamp)
      : stamp.then((current) => this.jsonAt(tenant, current));
  }

  private async jsonAt(tenant: Tenant, stamp: string): Promise<string> {
    const version = this.version;
    const cached = this.cache.get(tenant.id);
    if (cached?.version === version && cached.stamp === stamp && cached.tenantName === tenant.name) return cached.json;
    const json = JSON.stringify(await this.build(tenant));
    this.buildCount++;
    this.cache.set(tenant.id, { version, stamp, tenantName: tenant.name, json });
    return json;
  }

  private build(tenant: Tenant): Promise<Dashboard[]> {
    return Promise.all(
      this.dashboards.map(async (definition) => {
        const cards = await definition.cards({ tenant, records: this.records });
        if (!Array.isArray(cards) || !cards.every(isCard)) {
          throw new Error(
            `Dashboard "${definition.name}": cards() must return [{ title: string, value: string | number }].`,
          );
        }
        return {
          name: definition.name,
          label: definition.label,
          cards: cards.map((card) => ({ title: card.title, value: card.value })),
        };
      }),
    );
  }
}

function isCard(value: unknown): value is DashboardCard {
  if (value === null || typeof value !== 'object') return false;
  const { title, value: cardValue } = value as { title?: unknown; value?: unknown };
  return (
    typeof title === 'string' &&
    (typeof cardValue === 'string' || (typeof cardValue === 'number' && Number.isFinite(cardValue)))
  );
}
