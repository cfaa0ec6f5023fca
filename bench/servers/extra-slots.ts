import { Slot, SlotLocation, type SlotLocationValue } from '../../shared';
import type { SlotRegistrationMap } from '../../server/slots/slot-registry';

/**
 * `count` more slots for the registry-size benchmark, spread evenly over the public locations, so `GET /slots` and
 * `GET /meta` both carry every one of them. Each has small, distinct props (about 80 bytes of JSON per slot).
 */
export function extraSlots(count: number): SlotRegistrationMap {
  const locations = SlotLocation.publicValues();
  const map: Partial<Record<SlotLocationValue, Slot[]>> = {};
  for (let index = 0; index < count; index += 1) {
    const location = locations[index % locations.length] as SlotLocationValue;
    const slot = Slot.make('BenchNotice', { index, text: `Registered slot number ${index}` });
    (map[location] ??= []).push(slot);
  }
  return map;
}
