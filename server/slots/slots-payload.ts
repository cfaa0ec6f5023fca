import type { SlotEntry, SlotLocationValue, SlotMap, SlotsPayload, VisibilityRule } from '../../shared';
import { strongEtag } from './etag';
import type { SlotRegistry, SlotRegistrySnapshot } from './slot-registry';

/** The slots of one registry version, encoded once: the public slot map and the bytes every route sends. */
export interface EncodedSlots {
  readonly version: number;
  /** The public locations' slots (what `GET /slots` carries), for the host page's boot data and hints. */
  readonly publicSlots: SlotMap;
  /** The body of `GET /slots`: `{"slots":{...}}` with the public locations only. */
  readonly publicPayload: string;
  /** `publicPayload` encoded once, as it is sent. */
  readonly publicBody: Buffer;
  readonly publicEtag: string;
  /** The `slots` object with every location, as JSON text, for the `/meta` body. */
  readonly allSlots: string;
  /** The same slots as an object, for the hints of a signed-in page. */
  readonly allSlotMap: SlotMap;
  /**
   * The slots with a `visibleWhen` rule, by location and index in `allSlotMap`: what a `/meta` answer evaluates per
   * viewer (visible-slots.ts). Empty when no slot has a rule.
   */
  readonly ruled: ReadonlyArray<{
    location: SlotLocationValue;
    index: number;
    rule: VisibilityRule;
    ruleIndex: number;
  }>;
  /**
   * The distinct rules of `ruled` (equal rules once: many slots commonly share a few rules); `ruleIndex` points here.
   * A request evaluates each once, so its cost grows with the distinct rules, not with the ruled slots.
   */
  readonly rules: readonly VisibilityRule[];
}

/**
 * The payloads of the registered slots, built once per registry version rather than per request.
 * `builds` counts the builds, so tests (and metrics) can see that requests reuse them.
 */
export class SlotsPayloadCache {
  private cached: EncodedSlots | null = null;
  private buildCount = 0;

  constructor(private readonly registry: SlotRegistry) {}

  get builds(): number {
    return this.buildCount;
  }

  current(): EncodedSlots {
    const version = this.registry.version;
    if (this.cached?.version !== version) this.cached = this.build(version, this.registry.snapshot());
    return this.cached;
  }

  private build(version: number, snapshot: SlotRegistrySnapshot): EncodedSlots {
    this.buildCount++;
    const all: SlotMap = {};
    const publicOnly: SlotMap = {};
    const ruled: Array<EncodedSlots['ruled'][number]> = [];
    const rules: VisibilityRule[] = [];
    const ruleIndexByText = new Map<string, number>();
    for (const [location, slots] of snapshot) {
      if (slots.length === 0) continue;
      const entries: SlotEntry[] = slots.map((slot) => slot.toEntry());
      slots.forEach((slot, index) => {
        const rule = slot.placement.visibleWhen;
        if (rule === undefined) return;
        // Rules are plain checked data (shared/slot-placement.ts): equal JSON, equal rule.
        const text = JSON.stringify(rule);
        let ruleIndex = ruleIndexByText.get(text);
        if (ruleIndex === undefined) {
          ruleIndex = rules.push(rule) - 1;
          ruleIndexByText.set(text, ruleIndex);
        }
        ruled.push({ location: location.value, index, rule, ruleIndex });
      });
      all[location.value] = entries;
      // A rule at a public location is refused at registration; were one there, GET /slots (no viewer) leaves it out.
      const unruled = entries.filter((_, index) => slots[index]!.placement.visibleWhen === undefined);
      if (location.isPublic() && unruled.length > 0) publicOnly[location.value] = unruled;
    }
    const payload: SlotsPayload = { slots: publicOnly };
    const publicPayload = JSON.stringify(payload);
    return Object.freeze({
      version,
      publicSlots: Object.freeze(publicOnly),
      publicPayload,
      publicBody: Buffer.from(publicPayload, 'utf8'),
      publicEtag: strongEtag(publicPayload),
      allSlots: JSON.stringify(all),
      allSlotMap: Object.freeze(all),
      ruled: Object.freeze(ruled),
      rules: Object.freeze(rules),
    });
  }
}
