import type { SlotMap, Tenant } from '../../shared';
import type { SlotsPayloadCache } from '../slots/slots-payload';
import { VisibleSlots, type VisibleSlotsPart } from '../slots/visible-slots';
import type { DashboardRegistry } from './dashboard-registry';
import type { ModuleRegistry } from './module-registry';

/**
 * The bytes of one `/meta` answer, in order: `{"dashboards":[...],"modules":[...],"slots":` of the tenant, then
 * `{...every location...}}`, the same Buffer for every viewer whose `visibleWhen` rules come out the same.
 */
export type MetaBody = readonly [head: Buffer, slots: Buffer];

interface CachedBody {
  dashboards: string;
  modules: string;
  slots: VisibleSlotsPart;
  body: MetaBody;
}

/** Who asks: the roles and permissions of the signed-in user in the body's tenant, and the flags on for it. */
export interface MetaViewer {
  roles: readonly string[];
  permissions: readonly string[];
  flags: ReadonlySet<string>;
}

const NO_ROLES: MetaViewer = Object.freeze({
  roles: Object.freeze([]),
  permissions: Object.freeze([]),
  flags: Object.freeze(new Set<string>()),
});

/**
 * The encoded `/meta` body per tenant, rebuilt only when one of its parts changes: the tenant's dashboards (their
 * cache follows the records), the modules, or the slots (per registry version). The slots part, the big one, is
 * encoded once and shared by every tenant rather than copied into each tenant's body.
 */
export class MetaBodyCache {
  private readonly bodies = new Map<string, CachedBody>();
  private readonly visible = new VisibleSlots();
  private slotsBytesOf = new WeakMap<VisibleSlotsPart, Buffer>();
  private buildCount = 0;

  constructor(
    private readonly parts: { slots: SlotsPayloadCache; modules: ModuleRegistry; dashboards: DashboardRegistry },
  ) {}

  /** How many bodies were built (tests: requests reuse them). */
  get builds(): number {
    return this.buildCount;
  }

  /**
   * The `/meta` body for a user of `tenant`: the slots whose `visibleWhen` rule fails for them are not in it (a user
   * without roles, permissions or flags when no viewer is given).
   */
  async body(tenant: Tenant, viewer: MetaViewer = NO_ROLES): Promise<MetaBody> {
    // The registries hand back the same objects while nothing changed, so these comparisons are pointer checks.
    const dashboards = await this.parts.dashboards.json(tenant);
    const modules = this.parts.modules.json();
    const slots = this.visibleSlots(tenant, viewer);
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

  /** The slot map a user of `tenant` may see: the hints of their signed-in page. */
  slotMap(tenant: Tenant, viewer: MetaViewer = NO_ROLES): SlotMap {
    return this.visibleSlots(tenant, viewer).map;
  }

  private visibleSlots(tenant: Tenant, viewer: MetaViewer): VisibleSlotsPart {
    const { roles, permissions, flags } = viewer;
    return this.visible.of(this.parts.slots.current(), { tenant: tenant.id, roles, permissions, flags });
  }

  private slotsBytes(slots: VisibleSlotsPart): Buffer {
    let bytes = this.slotsBytesOf.get(slots);
    if (bytes === undefined) {
      bytes = Buffer.from(`${slots.json}}`, 'utf8');
      this.slotsBytesOf.set(slots, bytes);
    }
    return bytes;
  }
}
