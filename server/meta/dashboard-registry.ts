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

/** The longest a dashboard's `cards()` is waited for: a slower one is answered unavailable. */
export const DASHBOARD_CARDS_TIMEOUT_MS = 2_000;
/** How long dashboards with one unavailable are kept before its cards are asked for again. */
export const DASHBOARD_RETRY_MS = 10_000;

export interface DashboardRegistryOptions {
  /** Where a dashboard whose cards failed or came late is reported, with its name and the tenant. */
  logger: { warn(fields: Record<string, unknown>, message: string): void };
  cardsTimeoutMs?: number;
  retryMs?: number;
  now?: () => number;
}

interface CachedDashboards {
  version: number;
  stamp: string;
  tenantName: string;
  json: string;
  /** Set when a dashboard was unavailable: its cards are asked for again from then on. */
  retryAt?: number;
}

/**
 * The dashboards (`dashboards` of GET /meta). Their JSON is cached per tenant and rebuilt only when the dashboards,
 * the tenant or any record changed (the record source's change stamp also moves for writes by other processes).
 *
 * A dashboard's cards are the application's own code, which may call a slow service or fail: each is computed on its
 * own, waited for DASHBOARD_CARDS_TIMEOUT_MS at the most, and one that throws, returns something else than cards or
 * comes late is answered `unavailable` (logged), so `/meta`, and with it every signed-in page's navigation and slots,
 * is answered with the other dashboards rather than a 500 or no answer at all.
 */
export class DashboardRegistry {
  private readonly dashboards: DashboardDefinition[] = [];
  private version = 0;
  private readonly cache = new Map<string, CachedDashboards>();
  /** The build under way per tenant: requests arriving meanwhile wait for it rather than start their own. */
  private readonly building = new Map<string, { key: string; json: Promise<string> }>();
  private buildCount = 0;
  private readonly cardsTimeoutMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly records: RecordSource,
    private readonly options: DashboardRegistryOptions,
  ) {
    this.cardsTimeoutMs = options.cardsTimeoutMs ?? DASHBOARD_CARDS_TIMEOUT_MS;
    this.retryMs = options.retryMs ?? DASHBOARD_RETRY_MS;
    this.now = options.now ?? Date.now;
  }

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
    if (
      cached?.version === version &&
      cached.stamp === stamp &&
      cached.tenantName === tenant.name &&
      (cached.retryAt === undefined || this.now() < cached.retryAt)
    ) {
      return cached.json;
    }
    const key = `${version}|${stamp}|${tenant.name}`;
    const under = this.building.get(tenant.id);
    if (under?.key === key) return under.json;
    const json = this.build(tenant).then(({ dashboards, unavailable }) => {
      const text = JSON.stringify(dashboards);
      this.buildCount++;
      const retryAt = unavailable ? this.now() + this.retryMs : undefined;
      this.cache.set(tenant.id, { version, stamp, tenantName: tenant.name, json: text, retryAt });
      return text;
    });
    this.building.set(tenant.id, { key, json });
    try {
      return await json;
    } finally {
      if (this.building.get(tenant.id)?.json === json) this.building.delete(tenant.id);
    }
  }

  private async build(tenant: Tenant): Promise<{ dashboards: Dashboard[]; unavailable: boolean }> {
    const dashboards = await Promise.all(this.dashboards.map((definition) => this.dashboardOf(definition, tenant)));
    return { dashboards, unavailable: dashboards.some((dashboard) => dashboard.unavailable === true) };
  }

  /** One dashboard for the tenant: its cards, or none and `unavailable` when they failed or came late. */
  private async dashboardOf(definition: DashboardDefinition, tenant: Tenant): Promise<Dashboard> {
    const { name, label } = definition;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.cardsTimeoutMs);
    });
    try {
      const cards = await Promise.race([
        Promise.resolve().then(() => definition.cards({ tenant, records: this.records })),
        late,
      ]);
      if (cards === 'late') throw new Error(`cards() did not answer within ${this.cardsTimeoutMs} ms`);
      if (!Array.isArray(cards) || !cards.every(isCard)) {
        throw new Error('cards() must return [{ title: string, value: string | number }]');
      }
      return { name, label, cards: cards.map((card) => ({ title: card.title, value: card.value })) };
    } catch (error) {
      this.options.logger.warn(
        { err: error, dashboard: name, tenant: tenant.id },
        `Dashboard "${name}" is unavailable: its cards failed or came late (asked again within ${this.retryMs / 1000} s).`,
      );
      return { name, label, cards: [], unavailable: true };
    } finally {
      clearTimeout(timer);
    }
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
