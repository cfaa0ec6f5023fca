import { performance } from 'node:perf_hooks';
import { SlotRegistry, type SlotRegistrationMap } from '../../server/slots/slot-registry';
import { median } from '../harness/median';
import type { RegistrationResult } from '../report/bench-results';
import { extraSlots } from '../servers/extra-slots';
import { ruledSlots } from '../servers/ruled-slots';

/** The registry sizes compared: the large one is the target, the small one its baseline. */
export const REGISTRATION_SIZES = Object.freeze({ small: 500, large: 5_000 });

/**
 * Per-slot time at 500 / per-slot time at 5,000, registered in one call: ordering a location costs O(n log n) in its
 * slots, so ten times the slots may cost a little more than ten times the time, never a hundred.
 */
export const REGISTRATION_MIN_RATIO = 0.5;

const REPEATS = 7;
/** Registrations made and not timed first, at each size: the JIT compiles the registry's code before any is timed. */
const WARM_UP_REPEATS = 3;

interface RegistrationCase {
  name: string;
  slots: (count: number) => SlotRegistrationMap;
  register: (registry: SlotRegistry, map: SlotRegistrationMap) => void;
  minimumRatio: number | null;
}

const inOneCall = (registry: SlotRegistry, map: SlotRegistrationMap) => registry.register(map);
const oneCallEach = (registry: SlotRegistry, map: SlotRegistrationMap) => {
  for (const [location, slots] of Object.entries(map)) {
    for (const slot of [slots ?? []].flat()) registry.register({ [location]: slot });
  }
};

const CASES: readonly RegistrationCase[] = [
  { name: 'public slots, one call', slots: extraSlots, register: inOneCall, minimumRatio: REGISTRATION_MIN_RATIO },
  { name: 'ruled slots, one call', slots: ruledSlots, register: inOneCall, minimumRatio: REGISTRATION_MIN_RATIO },
  // Each call checks its location's ids again: the time per slot follows the slots already at that location. No
  // goal: the figure says what a host that registers slot by slot pays.
  { name: 'public slots, one call each', slots: extraSlots, register: oneCallEach, minimumRatio: null },
];

/**
 * `registerSlots` at start-up, in the bench process itself (the registry is in memory: no server, no I/O): the median
 * time of REPEATS registrations into a fresh registry and its first read (after WARM_UP_REPEATS untimed), at 500 and at 5,000 slots, compared per
 * slot.
 */
export function benchSlotRegistration(): RegistrationResult[] {
  return CASES.map((each) => {
    const small = timeRegistration(each, REGISTRATION_SIZES.small);
    const large = timeRegistration(each, REGISTRATION_SIZES.large);
    const perSlot = (ms: number, count: number) => (ms * 1000) / count;
    return {
      name: each.name,
      slots: REGISTRATION_SIZES.large,
      baselineSlots: REGISTRATION_SIZES.small,
      targetMs: large,
      baselineMs: small,
      ratio: perSlot(small, REGISTRATION_SIZES.small) / perSlot(large, REGISTRATION_SIZES.large),
      minimumRatio: each.minimumRatio,
    };
  });
}

function timeRegistration(each: RegistrationCase, count: number): number {
  const map = each.slots(count);
  const times: number[] = [];
  for (let repeat = 0; repeat < WARM_UP_REPEATS + REPEATS; repeat++) {
    const registry = new SlotRegistry();
    const started = performance.now();
    each.register(registry, map);
    // The first read orders what was registered (the registry orders a location when it is next read): timed too.
    const snapshot = registry.snapshot();
    if (repeat >= WARM_UP_REPEATS) times.push(performance.now() - started);
    // The slots must really be there, or the figure would time a registry that refused them.
    const held = [...snapshot.values()].reduce((sum, slots) => sum + slots.length, 0);
    if (held !== count) throw new Error(`${each.name}: ${held} of ${count} slots registered.`);
  }
  return median(times);
}
