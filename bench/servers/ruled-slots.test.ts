import { SlotRegistry } from '../../server/slots/slot-registry';
import { SlotsPayloadCache } from '../../server/slots/slots-payload';
import { ruledSlots } from './ruled-slots';

describe('ruledSlots', () => {
  it('places every slot, each with a rule, at protected locations only', () => {
    const registry = new SlotRegistry();
    registry.register(ruledSlots(1_000));
    const json = new SlotsPayloadCache(registry).current();
    expect(json.ruled).toHaveLength(1_000);
    expect(json.publicPayload).toBe('{"slots":{}}');
    expect(new Set(json.ruled.map((slot) => slot.location)).size).toBeGreaterThan(5);
  });
});
