import type { SlotEntry, SlotMap } from '../../shared';
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
 * The slots a viewer may see, per request, at little cost: only the slots that carry a `visibleWhen` rule are
 * evaluated (linear in them, not in all slots), and the part is cached by the outcome of those rules, so every viewer
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
    const outcome = slots.ruled.map(({ rule }) => (ruleHolds(rule, viewer) ? '1' : '0')).join('');
    let part = this.byOutcome.get(outcome);
    if (part === undefined) {
      part = visiblePart(slots, outcome);
      this.byOutcome.set(outcome, part);
    }
    return part;
  }
}

function visiblePart(slots: EncodedSlots, outcome: string): VisibleSlotsPart {
  const hidden = new Map<string, Set<number>>();
  slots.ruled.forEach(({ location, index }, at) => {
    if (outcome[at] === '1') return;
    const set = hidden.get(location) ?? new Set<number>();
    set.add(index);
    hidden.set(location, set);
  });
  const map: SlotMap = {};
  for (const [location, entries] of Object.entries(slots.allSlotMap) as Array<[keyof SlotMap, SlotEntry[]]>) {
    const leftOut = hidden.get(location);
    const kept = leftOut === undefined ? entries : entries.filter((_, index) => !leftOut.has(index));
    if (kept.length > 0) map[location] = kept;
  }
  return Object.freeze({ json: JSON.stringify(map), map: Object.freeze(map) });
}
