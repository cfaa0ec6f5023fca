import { Slot, SlotLocation, type SlotLocationValue, type VisibilityRule } from '../../shared';
import type { SlotRegistrationMap } from '../../server/slots/slot-registry';

/**
 * The rules the ruled slots carry, in turn: each kind a `/meta` request may evaluate (roles, tenants, flags, and
 * the three combinations), some holding for the demo admin and some not, so the answer is a real selection.
 */
const RULES: readonly VisibilityRule[] = [
  { roles: ['operator'] },
  { roles: ['viewer'] },
  { tenants: ['acme', 'bench-tenant'] },
  { flags: ['bench-flag'] },
  { $all: [{ roles: ['operator'] }, { $not: { flags: ['bench-flag'] } }] },
  { $any: [{ tenants: ['bench-tenant'] }, { flags: ['bench-flag', 'other-flag'] }] },
  { $not: { roles: ['viewer'] } },
];

/**
 * `count` slots with a `visibleWhen` rule for the rules benchmark, spread evenly over the protected locations (a
 * rule is refused at a public one), so every `GET /meta` evaluates each of them for its viewer.
 */
export function ruledSlots(count: number): SlotRegistrationMap {
  const locations = SlotLocation.cases().filter((location) => !location.isPublic());
  const map: Partial<Record<SlotLocationValue, Slot[]>> = {};
  for (let index = 0; index < count; index += 1) {
    const location = locations[index % locations.length]!.value;
    const rule = RULES[index % RULES.length]!;
    const slot = Slot.make('BenchNotice', { index, text: `Ruled slot number ${index}` }).placed({ visibleWhen: rule });
    (map[location] ??= []).push(slot);
  }
  return map;
}
