import type { SlotEntry, SlotLocationValue, SlotMap } from '../../shared';
import type { EncodedSlots } from './slots-payload';
import { ruleHolds, type Viewer } from './visibility-rule';

/** The slots of every location one viewer may see: the `slots` of their `/meta`, as JSON and as an object. */
export interface VisibleSlotsPart {
  readonly json: string;
  readonly map: SlotMap;
}

/** More outcomes than this in one registry version (many rules, many role mixes) start the cache afresh. */
const MAX_OUTCOMES = 1024;

/**
 * The slots a viewer may see, per request, at little cost: only the distinct `visibleWhen` rules are evaluated (one
 * evaluation per distinct rule, however many slots share it; nothing for slots without one), and the part is cached
 * by the outcome of those rules, so every viewer
 * with the same outcome (same roles, same tenant as far as the rules care) shares one object and its bytes. With no
 * rule at all it is the registry version's shared part, as before rules existed.
 */
export class VisibleSlots {
  private version = -1;
  private byOutcome = new Map<string, VisibleSlotsPart>();
  private everything: { slots: EncodedSlots; part: VisibleSlotsPart } | null = null;

  of(slots: EncodedSlots, viewer: Viewer): VisibleSlotsPart {
    if (slots.ruled.length === 0) {
      if (this.everything?.slots !== slots) {
        this.everything = { slots, part: Object.freeze({ json: slots.allSlots, map: slots.allSlotMap }) };
      }
      return this.everything.part;
    }
    if (slots.version !== this.version || this.byOutcome.size >= MAX_OUTCOMES) {
      this.version = slots.version;
      this.byOutcome = new Map();
    }
    // One evaluation per distinct rule; the slots' outcomes follow from these, so they key the cache.
    const outcome = ruleOutcome(slots, viewer);
    let part = this.byOutcome.get(outcome);
    if (part === undefined) {
      part = visiblePart(slots, outcome);
      this.byOutcome.set(outcome, part);
    }
    return part;
  }
}

/** Whether each distinct rule of `slots` holds for the viewer, in order: `'1'` holds, `'0'` fails. */
export function ruleOutcome(slots: EncodedSlots, viewer: Viewer): string {
  let outcome = '';
  for (const rule of slots.rules) outcome += ruleHolds(rule, viewer) ? '1' : '0';
  return outcome;
}

/**
 * The slots a viewer does not see, per location: their indexes in `allSlotMap`, for the rules' `outcome`
 * ({@link ruleOutcome}). What `/meta` leaves out, and what the placements preview names as hidden.
 */
export function hiddenSlots(slots: EncodedSlots, outcome: string): ReadonlyMap<SlotLocationValue, ReadonlySet<number>> {
  const hidden = new Map<SlotLocationValue, Set<number>>();
  for (const { location, index, ruleIndex } of slots.ruled) {
    if (outcome[ruleIndex] === '1') continue;
    const set = hidden.get(location) ?? new Set<number>();
    set.add(index);
    hidden.set(location, set);
  }
  return hidden;
}

/** The slots of every location the rules' `outcome` lets a viewer see: what `/meta` sends them. */
function visiblePart(slots: EncodedSlots, outcome: string): VisibleSlotsPart {
  const hidden = hiddenSlots(slots, outcome);
  const map: SlotMap = {};
  for (const [location, entries] of Object.entries(slots.allSlotMap) as Array<[keyof SlotMap, SlotEntry[]]>) {
    const leftOut = hidden.get(location);
    const kept = leftOut === undefined ? entries : entries.filter((_, index) => !leftOut.has(index));
    if (kept.length > 0) map[location] = kept;
  }
  return Object.freeze({ json: JSON.stringify(map), map: Object.freeze(map) });
}
