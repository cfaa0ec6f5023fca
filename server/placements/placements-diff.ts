import { isPlainObject, type JsonValue, type PlacementChange, type Slot, type SlotLocation } from '../../shared';
import { placementProblems } from '../slots/slot-order';
import type { PlacedSlotInfo } from '../slots/slot-registry';
import type { DocumentSlot, ParsedPlacements } from './placements-document';

/**
 * A document read, with every location's slots as they would be served with it published (code's, the file's and
 * its own: placedWith), which gives each slot its id and its place.
 */
export interface PlacedDocument {
  parsed: ParsedPlacements;
  placed: ReadonlyMap<SlotLocation, readonly PlacedSlotInfo[]>;
}

/**
 * What publishing `draft` would change against `published`: per location, the document's slots added, removed or
 * changed (pairSlots says which slot of one is which of the other), an order served that changes among the slots
 * both place, the allow-lists that change, and the form slots of each remote and form that change. A slot is named
 * by its id as the editor's order names it. A draft whose shape is wrong has no diff (null: its problems say why),
 * since what it would publish is unknown: a slot that cannot be read is neither kept nor removed, and the publish
 * is refused.
 */
export function diffPlacements(published: PlacedDocument, draft: PlacedDocument): PlacementChange[] | null {
  if (draft.parsed.problems.length > 0) return null;
  const before = slotsByLocation(published);
  const after = slotsByLocation(draft);
  const changes: PlacementChange[] = [];
  for (const location of new Set([...after.keys(), ...before.keys()])) {
    const { pairs, removed } = pairSlots(before.get(location) ?? [], after.get(location) ?? []);
    const at = (slot: NamedSlot) => ({ location, remote: slot.remote, id: slot.id });
    for (const slot of after.get(location) ?? []) {
      const old = pairs.get(slot);
      if (old === undefined) changes.push({ change: 'added', ...at(slot), before: null, after: slot.json });
      else if (JSON.stringify(old.json) !== JSON.stringify(slot.json)) {
        changes.push({ change: 'changed', ...at(slot), before: old.json, after: slot.json });
      }
    }
    for (const slot of removed) changes.push({ change: 'removed', ...at(slot), before: slot.json, after: null });
    // A cycle leaves no order to compare: the one computed is a fallback never served (its problem refuses the publish).
    if (reordered(pairs) && orderable(draft, location)) {
      changes.push({
        change: 'order',
        location,
        remote: null,
        id: null,
        before: idsServedAt(published, location),
        after: idsServedAt(draft, location),
      });
    }
  }
  changes.push(...removedFromGoneLocations(published.parsed));
  const locations = new Set([...published.parsed.locationRemotes.keys(), ...draft.parsed.locationRemotes.keys()]);
  for (const location of locations) {
    const old = published.parsed.locationRemotes.get(location) ?? null;
    const now = draft.parsed.locationRemotes.get(location) ?? null;
    if (JSON.stringify(old) === JSON.stringify(now)) continue;
    changes.push({
      change: 'allow-list',
      location: location.value,
      remote: null,
      id: null,
      before: old && [...old],
      after: now && [...now],
    });
  }
  changes.push(...diffForms(published.parsed, draft.parsed));
  return changes;
}

/**
 * The published document's items at locations an upgrade renamed or removed, each removed: a draft with a diff has
 * none (each is a blocking problem), so publishing it takes them out, and the Publish question counts them.
 */
function removedFromGoneLocations(published: ParsedPlacements): PlacementChange[] {
  return published.atGoneLocations.map(({ remote, location, item }) => {
    const written = isPlainObject(item) ? item : {};
    const named = [written.id, written.component].find((name) => typeof name === 'string');
    return {
      change: 'removed',
      location,
      remote,
      id: (named as string | undefined) ?? null,
      before: item,
      after: null,
    };
  });
}

/** A document slot as the diff sees it: its remote, its id and place as served, and how the document writes it. */
export interface NamedSlot {
  remote: string;
  /** Given, or derived as the editor's order derives it (among code's and the file's slots too). */
  id: string;
  /** Whether the document gives the id (`"id"`), rather than the component deriving one. */
  givenId: boolean;
  component: string;
  /** Its place in the order served at its location (code's and the file's slots counted). */
  served: number;
  json: JsonValue;
}

/**
 * Which slot of the published document is which of the draft, at one location and of one remote: those with the
 * same given id; then, in document order, those written the same (component, props, content, placement keys);
 * then the rest of the same component, in order. Without an id a slot has no identity but its place, which moves
 * when one before it is removed or inserted: pairing the identical ones first reports that one slot alone. What
 * is left is added or removed.
 */
export function pairSlots(
  before: readonly NamedSlot[],
  after: readonly NamedSlot[],
): { pairs: Map<NamedSlot, NamedSlot>; added: NamedSlot[]; removed: NamedSlot[] } {
  const pairs = new Map<NamedSlot, NamedSlot>();
  const taken = new Set<NamedSlot>();
  const pair = (same: (old: NamedSlot, now: NamedSlot) => boolean) => {
    for (const now of after) {
      if (pairs.has(now)) continue;
      const old = before.find(
        (candidate) => !taken.has(candidate) && candidate.remote === now.remote && same(candidate, now),
      );
      if (old === undefined) continue;
      pairs.set(now, old);
      taken.add(old);
    }
  };
  pair((old, now) => old.givenId && now.givenId && old.id === now.id);
  pair((old, now) => JSON.stringify(old.json) === JSON.stringify(now.json));
  pair((old, now) => old.component === now.component);
  return {
    pairs,
    added: after.filter((now) => !pairs.has(now)),
    removed: before.filter((old) => !taken.has(old)),
  };
}

/** Whether the slots both documents place are served in another order (what is added or removed aside). */
function reordered(pairs: ReadonlyMap<NamedSlot, NamedSlot>): boolean {
  const served = [...pairs].sort(([, a], [, b]) => a.served - b.served).map(([now]) => now.served);
  return served.some((place, index) => index > 0 && place < served[index - 1]!);
}

/** The document's slots per location (its value), in document order, each named and placed as served. */
function slotsByLocation(document: PlacedDocument): Map<string, NamedSlot[]> {
  const served = new Map<Slot, { id: string; place: number }>();
  for (const infos of document.placed.values()) {
    infos.forEach((info, place) => served.set(info.slot, { id: info.id, place }));
  }
  const byLocation = new Map<string, NamedSlot[]>();
  for (const item of document.parsed.slots) {
    const found = served.get(item.slot);
    const list = byLocation.get(item.location.value) ?? [];
    list.push({
      remote: item.remote,
      id: found?.id ?? item.slot.placement.id ?? item.slot.component,
      givenId: item.slot.placement.id !== undefined,
      component: item.slot.component,
      served: found?.place ?? Number.MAX_SAFE_INTEGER,
      json: slotJson(item.slot),
    });
    byLocation.set(item.location.value, list);
  }
  return byLocation;
}

/** Whether the slots at `location` can be ordered as `document` places them: no cycle of before and after. */
function orderable(document: PlacedDocument, location: string): boolean {
  for (const [at, infos] of document.placed) {
    if (at.value !== location) continue;
    const slots = infos.map((info) => info.slot);
    return !placementProblems(location, slots).some((problem) => problem.kind === 'order-cycle');
  }
  return true;
}

/** Every slot's id at `location` in the order served (code's, the file's and the document's): an order's before or after. */
function idsServedAt(document: PlacedDocument, location: string): string[] {
  for (const [at, infos] of document.placed) if (at.value === location) return infos.map((info) => info.id);
  return [];
}

/** The form slots each remote places in each resource's form, as lists: any difference is one change. */
function diffForms(published: ParsedPlacements, draft: ParsedPlacements): PlacementChange[] {
  const before = formsByKey(published);
  const after = formsByKey(draft);
  const changes: PlacementChange[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(key) ?? null;
    const now = after.get(key) ?? null;
    if (JSON.stringify(old) === JSON.stringify(now)) continue;
    const [remote, resource] = JSON.parse(key) as [string, string];
    changes.push({
      change: 'forms',
      location: `resource form "${resource}"`,
      remote,
      id: null,
      before: old,
      after: now,
    });
  }
  return changes;
}

function formsByKey(parsed: ParsedPlacements): Map<string, JsonValue[]> {
  const keyed = new Map<string, JsonValue[]>();
  for (const { remote, resource, slot, position } of parsed.forms) {
    const key = JSON.stringify([remote, resource]);
    const json = JSON.parse(JSON.stringify({ component: slot.component, props: slot.props, position })) as JsonValue;
    keyed.set(key, [...(keyed.get(key) ?? []), json]);
  }
  return keyed;
}

/** A slot as the document writes it (component, props, content, placement), for the diff's before and after. */
function slotJson(slot: DocumentSlot['slot']): JsonValue {
  // A document's content is text (configured-slots.ts): nested Slots come from code only.
  const content = typeof slot.content === 'string' ? { content: slot.content } : {};
  return JSON.parse(
    JSON.stringify({ component: slot.component, props: slot.props, ...content, ...slot.placement }),
  ) as JsonValue;
}
