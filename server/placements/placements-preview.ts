import type { PlacementPreview } from '../../shared';
import type { RemotesConfig } from '../remotes/remotes-config';
import type { SlotRegistry } from '../slots/slot-registry';
import { orderSlots } from '../slots/slot-order';
import type { ParsedPlacements } from './placements-document';

/**
 * The order each location would have with `parsed` published: code's slots, the file's, then the document's, ordered
 * as the server orders them (slot-order.ts). Every slot placed is listed, whether its rule would show it to a given
 * user or its remote answers now: the editor's preview of where a slot lands among the others.
 */
export function previewPlacements(
  slots: SlotRegistry,
  file: RemotesConfig,
  parsed: ParsedPlacements,
): PlacementPreview {
  const preview: PlacementPreview = {};
  const locations = new Set([
    ...slots.registeredByCode().keys(),
    ...file.slots.map((item) => item.location),
    ...parsed.slots.map((item) => item.location),
  ]);
  for (const location of locations) {
    const placed = [
      ...(slots.registeredByCode().get(location) ?? []).map((slot) => ({
        slot,
        remote: null,
        source: 'code' as const,
      })),
      ...file.slots
        .filter((item) => item.location === location)
        .map(({ slot, remote }) => ({ slot, remote, source: 'file' as const })),
      ...parsed.slots
        .filter((item) => item.location === location)
        .map(({ slot, remote }) => ({ slot, remote, source: 'draft' as const })),
    ];
    const ordered = orderSlots(
      location.value,
      placed.map((item) => item.slot),
    );
    preview[location.value] = ordered.order.map((at, index) => ({
      id: ordered.ids[index]!,
      component: placed[at]!.slot.component,
      remote: placed[at]!.remote,
      source: placed[at]!.source,
    }));
  }
  return preview;
}
