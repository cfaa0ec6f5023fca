import type { JsonValue, PlacementChange } from '../../shared';
import { slotIds } from '../slots/slot-order';
import type { ParsedPlacements } from './placements-document';

/**
 * What publishing `draft` would change against `published`: per location, the document's slots added, removed or
 * changed (matched by remote and slot id: given, or derived from the component as at the location), the
 * allow-lists that change, and the form slots of each remote and form that change. Both documents are read
 * already; a draft whose shape is wrong has no diff (its problems say why).
 */
export function diffPlacements(published: ParsedPlacements, draft: ParsedPlacements): PlacementChange[] {
  const before = slotsByKey(published);
  const after = slotsByKey(draft);
  const changes: PlacementChange[] = [];
  for (const [key, item] of after) {
    const old = before.get(key);
    if (old === undefined) changes.push({ change: 'added', ...item.at, before: null, after: item.json });
    else if (JSON.stringify(old.json) !== JSON.stringify(item.json)) {
      changes.push({ change: 'changed', ...item.at, before: old.json, after: item.json });
    }
  }
  for (const [key, item] of before) {
    if (!after.has(key)) changes.push({ change: 'removed', ...item.at, before: item.json, after: null });
  }
  const locations = new Set([...published.locationRemotes.keys(), ...draft.locationRemotes.keys()]);
  for (const location of locations) {
    const old = published.locationRemotes.get(location) ?? null;
    const now = draft.locationRemotes.get(location) ?? null;
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
  changes.push(...diffForms(published, draft));
  return changes;
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

interface KeyedSlot {
  at: { location: string; remote: string; id: string };
  json: JsonValue;
}

function slotsByKey(parsed: ParsedPlacements): Map<string, KeyedSlot> {
  const keyed = new Map<string, KeyedSlot>();
  const locations = new Set(parsed.slots.map((item) => item.location));
  for (const location of locations) {
    const here = parsed.slots.filter((item) => item.location === location);
    const ids = slotIds(here.map((item) => item.slot));
    here.forEach((item, index) => {
      const at = { location: location.value, remote: item.remote, id: ids[index]! };
      keyed.set(JSON.stringify([at.location, at.remote, at.id]), { at, json: slotJson(item.slot) });
    });
  }
  return keyed;
}

/** A slot as the document writes it (component, props, content, placement), for the diff's before and after. */
function slotJson(slot: ParsedPlacements['slots'][number]['slot']): JsonValue {
  return JSON.parse(JSON.stringify({ component: slot.component, props: slot.props, ...slot.placement })) as JsonValue;
}
