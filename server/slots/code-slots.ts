import type { ResourceRegistry } from '../resources/resource-registry';
import { Slot } from '../../shared';
import { placedSlots, type PlacedSlot } from './slot-contract';
import type { SlotRegistry } from './slot-registry';

/**
 * Every slot placed by code, as the contract check takes them: those of `registerSlots` per location (with their
 * content slots), then those among the fields of each resource form.
 */
export function codeSlots(registry: SlotRegistry, resources: ResourceRegistry): PlacedSlot[] {
  const placed: PlacedSlot[] = [];
  for (const [location, slots] of registry.registeredByCode())
    placed.push(...placedSlots(location.value, slots, 'code'));
  for (const resource of resources.list()) {
    resource.items.forEach((item, index) => {
      if (!(item instanceof Slot)) return;
      const location = `resource form "${resource.name}"`;
      placed.push({ location, position: `[${index}]`, slot: item, source: 'code', remote: null, inForm: true });
    });
  }
  return placed;
}
