import { SlotLocation } from '../../shared';
import { SlotRegistry } from '../../server/slots/slot-registry';
import { SlotsPayloadCache } from '../../server/slots/slots-payload';
import { extraSlots } from './extra-slots';

describe('extraSlots', () => {
  it('spreads the slots over the public locations, so /slots and /meta both carry all of them', () => {
    const registry = new SlotRegistry();
    registry.register(extraSlots(1_000));
    const json = new SlotsPayloadCache(registry).current();
    const publicSlots = (JSON.parse(json.publicPayload) as { slots: Record<string, unknown[]> }).slots;
    const allSlots = JSON.parse(json.allSlots) as Record<string, unknown[]>;

    expect(Object.keys(publicSlots).sort()).toEqual([...SlotLocation.publicValues()].sort());
    const count = (map: Record<string, unknown[]>) => Object.values(map).reduce((sum, list) => sum + list.length, 0);
    expect(count(publicSlots)).toBe(1_000);
    expect(count(allSlots)).toBe(1_000);
    expect(json.publicPayload).toContain('"props":{"index":999,"text":"Registered slot number 999"}');
  });

  it('registers nothing for zero', () => {
    expect(extraSlots(0)).toEqual({});
  });
});
