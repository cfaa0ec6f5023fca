import type { RegisteredResource } from '../resources/registered-resource';
import type { ResourceRegistry } from '../resources/resource-registry';
import { Slot } from '../../shared';
import { placedSlots, type PlacedSlot } from '../slots/slot-contract';
import type { SlotRegistry } from '../slots/slot-registry';

/**
 * Every slot placed by code, as the slot check takes them: those of `registerSlots` per location (with their
 * content slots), then those among the fields of each resource form.
 */
export function codeSlots(registry: SlotRegistry, resources: ResourceRegistry): PlacedSlot[] {
  const placed: PlacedSlot[] = [];
  for (const [location, slots] of registry.registeredByCode())
    placed.push(...placedSlots(location.value, slots, 'code'));
  for (const resource of resources.list()) placed.push(...formSlots(resource).map((slot) => slot.placed));
  return placed;
}

/** The slots among one resource form's fields, each with its index among the form's items. */
export function formSlots(resource: RegisteredResource): Array<{ index: number; placed: PlacedSlot }> {
  const location = `resource form "${resource.name}"`;
  return resource.items.flatMap((item, index) =>
    item instanceof Slot
      ? [
          {
            index,
            placed: {
              location,
              position: `[${index}]`,
              slot: item,
              source: 'code' as const,
              remote: null,
              inForm: true,
            },
          },
        ]
      : [],
  );
}
