import type { Tenant } from '../../shared';
import type { EncodedSlots, SlotsPayloadCache } from '../slots/slots-payload';
import type { DashboardRegistry } from './dashboard-registry';
import type { ModuleRegistry } from './module-registry';

/**
 * The bytes of one `/meta` answer, in order: `{"dashboards":[...],"modules":[...],"slots":` of the tenant, then
 * `{...every location...}}`, the same Buffer for every tenant.
 */
export type MetaBody = readonly [head: Buffer, slots: Buffer];

interface CachedBody {
  dashboards: string;
  modules: string;
  slots: EncodedSlots;
  body: MetaBody;
}

/**
 * The encoded `/meta` body per tenant, rebuilt only when one of its parts changes: the tenant's dashboards (their
 * cache follows the records), the modules, or the slots (per registry version). The slots part, the big one, is
 * encoded once and shared by every tenant rather than copied into each tenant's body.
 */
export class MetaBodyCache {
  private readonly bodies = new Map<string, CachedBody>();
  private slotsPart: { slots: EncodedSlots; bytes: Buffer } | null = null;
  private buildCount = 0;

  constructor(
    private readonly parts: { slots: SlotsPayloadCache; modules: ModuleRegistry; dashboards: DashboardRegistry },
  ) {}

  /** How many bodies were built (tests: requests reuse them). */
  get builds(): number {
    return this.buildCount;
  }

  async body(tenant: Tenant): Promise<MetaBody> {
    // The registries hand back the same objects while nothing changed, so these comparisons are pointer checks.
    const dashboards = await this.parts.dashboards.json(tenant);
    const modules = this.parts.modules.json();
    const slots = this.parts.slots.current();
    const cached = this.bodies.get(tenant.id);
    const sameHead = cached !== undefined && cached.dashboards === dashboards && cached.modules === modules;
    if (sameHead && cached.slots === slots) return cached.body;
    this.buildCount++;
    const head = sameHead
      ? cached.body[0]
      : Buffer.from(`{"dashboards":${dashboards},"modules":${modules},"slots":`, 'utf8');
    const body: MetaBody = Object.freeze([head, this.slotsBytes(slots)] as const);
    this.bodies.set(tenant.id, { dashboards, modules, slots, body });
    return body;
  }

  private slotsBytes(slots: EncodedSlots): Buffer {
    if (this.slotsPart?.slots !== slots) this.slotsPart = { slots, bytes: Buffer.from(`${slots.allSlots}}`, 'utf8') };
    return this.slotsPart.bytes;
  }
}
