import {
  describeRule,
  type PlacementPreview,
  type PreviewedLocation,
  type PreviewedSlot,
  type SlotLocation,
} from '../../shared';
import { configuredSource } from '../slots/configured-slots';
import type { RemoteRegistry } from '../remotes/remote-registry';
import type { RemotesConfig } from '../remotes/remotes-config';
import type { ShowRule } from '../slots/shown-rule';
import type { PlacedSlotInfo, SlotRegistry } from '../slots/slot-registry';
import { SlotsPayloadCache } from '../slots/slots-payload';
import type { Viewer } from '../slots/visibility-rule';
import { hiddenSlots, ruleOutcome, VisibleSlots } from '../slots/visible-slots';
import { withPlacements, type ParsedPlacements } from './placements-document';

/**
 * The order each location would have with `parsed` published: code's slots, the file's, then the document's, ordered
 * by the slot registry as it orders the slots in force (slot-order.ts). Every slot placed is listed, whether its rule
 * would show it to a given user or its remote answers now: the editor's view of where a slot lands among the others.
 */
export function previewPlacements(
  slots: SlotRegistry,
  file: RemotesConfig,
  parsed: ParsedPlacements,
): PlacementPreview {
  const preview: PlacementPreview = {};
  for (const [location, infos] of placedWith(slots, file, parsed)) {
    preview[location.value] = infos.map((info) => ({
      id: info.id,
      component: info.slot.component,
      remote: info.remote,
      source: sourceOf(info.source),
    }));
  }
  return preview;
}

/**
 * Every location's slots with `parsed` published, in the order served, each with its id: code's, the file's and the
 * document's, whatever their rules and whether their remote answers now. The editor's order names each slot by this
 * id, and the diff does too (placements-diff.ts). Each document slot keeps its Slot, to be found by it.
 */
export function placedWith(
  slots: SlotRegistry,
  file: RemotesConfig,
  parsed: ParsedPlacements,
): ReadonlyMap<SlotLocation, readonly PlacedSlotInfo[]> {
  return slots.withConfigured(withPlacements(file, parsed).slots).placed();
}

export interface ViewerPreviewParts {
  slots: SlotRegistry;
  remoteRegistry: RemoteRegistry;
  /** The file's configuration (and the built remotes'), without the database's placements. */
  file: RemotesConfig;
}

/**
 * What `viewer` would be sent with `parsed` published, per location (one, or every location holding a slot): the
 * path of `GET /meta` run on that configuration. The configured slots that can render now (RemoteRegistry's split,
 * as the slots in force are chosen), in a registry with code's registrations (the same ordering), encoded as the
 * payload cache encodes them, and the viewer's part taken by VisibleSlots (the same rules, evaluated the same way).
 * Beside the entries, every slot placed with its outcome: shown, hidden by its rule, or left out and why. Each rule,
 * and its words in a reason, as `showRule` shows it to the user asking (shown-rule.ts): the rules are evaluated whole.
 */
export function previewForViewer(
  parts: ViewerPreviewParts,
  parsed: ParsedPlacements,
  viewer: Viewer,
  only: SlotLocation | null,
  showRule: ShowRule = (rule) => rule,
): Record<string, PreviewedLocation> {
  const { renderable, leftOut } = parts.remoteRegistry.renderableSlots(withPlacements(parts.file, parsed));
  const registry = parts.slots.withConfigured(renderable);
  const encoded = new SlotsPayloadCache(registry).current();
  const visible = new VisibleSlots().of(encoded, viewer).map;
  const hidden = hiddenSlots(encoded, ruleOutcome(encoded, viewer));

  const locations: Record<string, PreviewedLocation> = {};
  const at = (location: SlotLocation) => (locations[location.value] ??= { slots: [], placed: [] });
  // The location asked for is answered even when nothing is placed there.
  if (only !== null) at(only);
  for (const [location, infos] of registry.placed()) {
    if (only !== null && location !== only) continue;
    const previewed = at(location);
    previewed.slots = visible[location.value] ?? [];
    // placed() and the encoded entries hold a location's slots in the same (resolved) order.
    previewed.placed = infos.map((info, index): PreviewedSlot => {
      const placed = info.slot.placement.visibleWhen;
      const visibleWhen = placed === undefined ? undefined : showRule(placed);
      const slot: PreviewedSlot = {
        id: info.id,
        component: info.slot.component,
        remote: info.remote,
        source: sourceOf(info.source),
        outcome: 'shown',
        ...(visibleWhen === undefined ? {} : { visibleWhen }),
      };
      if (visibleWhen !== undefined && hidden.get(location.value)?.has(index)) {
        return { ...slot, outcome: 'hidden', reason: `hidden by its rule: ${describeRule(visibleWhen)}` };
      }
      return slot;
    });
  }
  for (const { configured, problems } of leftOut) {
    if (only !== null && configured.location !== only) continue;
    const { slot, remote } = configured;
    const placed = slot.placement.visibleWhen;
    const visibleWhen = placed === undefined ? undefined : showRule(placed);
    at(configured.location).placed.push({
      id: slot.placement.id ?? slot.component,
      component: slot.component,
      remote,
      source: sourceOf(configuredSource(configured)),
      outcome: 'left-out',
      ...(visibleWhen === undefined ? {} : { visibleWhen }),
      reason: `left out: ${problems.map((problem) => `${problem.path === null ? '' : `${problem.path} `}${problem.message}`).join('; ')}`,
    });
  }
  return locations;
}

/**
 * Who placed a slot, in the editor's words: the document previewed joins the file as the placements do (its slots
 * are the `placements` ones), the file here being the file alone, without the revision in force.
 */
function sourceOf(source: PlacedSlotInfo['source']): PreviewedSlot['source'] {
  if (source === 'code') return 'code';
  return source === 'placements' ? 'draft' : 'file';
}
