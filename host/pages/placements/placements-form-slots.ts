import { isPlainObject, type JsonValue, type PlacementsDocument } from '../../../shared';
import type { DraftFormSlotAt, DraftSlot } from '../../../shared/placements-listing';

// How the editor lists the form slots is the server's too (a refusal numbers their problems so): shared.
export { formSlotsOf, type DraftFormSlotAt } from '../../../shared/placements-listing';

/** The location a problem of a form slot names (as the server's slot check names a resource's form). */
export function formLocation(resource: string): string {
  return `resource form "${resource}"`;
}

/**
 * The document with the form slot at `at` changed by `change` (null removes it). An emptied resource list goes, an
 * emptied `forms` too, and an entry left with neither slots nor form slots.
 */
export function changeFormSlot(
  document: PlacementsDocument,
  at: Pick<DraftFormSlotAt, 'remote' | 'resource' | 'index'>,
  change: (slot: DraftSlot) => DraftSlot | null,
): PlacementsDocument {
  const remotes = (document.remotes ?? []).flatMap((entry) => {
    const items = entry.forms?.[at.resource];
    if (entry.name !== at.remote || !Array.isArray(items)) return [entry];
    const next = items.flatMap((slot, index) => {
      if (index !== at.index) return [slot];
      const changed = change(slot as DraftSlot);
      return changed === null ? [] : [changed];
    });
    const forms = { ...entry.forms };
    if (next.length === 0) delete forms[at.resource];
    else forms[at.resource] = next;
    const { forms: _old, ...rest } = entry;
    if (Object.keys(forms).length > 0) return [{ ...rest, forms }];
    return Object.keys(entry.slots ?? {}).length > 0 ? [rest] : [];
  });
  return { ...document, remotes };
}

/** The document with `component` of `remote` placed last in `resource`'s form list, at `position` (none: the end). */
export function addFormSlot(
  document: PlacementsDocument,
  remote: string,
  resource: string,
  component: string,
  position: JsonValue | undefined,
): PlacementsDocument {
  const slot: DraftSlot = position === undefined ? { component, props: {} } : { component, props: {}, position };
  const remotes = [...(document.remotes ?? [])];
  const at = remotes.findIndex((entry) => entry.name === remote);
  if (at === -1) remotes.push({ name: remote, forms: { [resource]: [slot] } });
  else {
    const entry = remotes[at]!;
    const list = entry.forms?.[resource];
    remotes[at] = { ...entry, forms: { ...entry.forms, [resource]: [...(Array.isArray(list) ? list : []), slot] } };
  }
  return { ...document, remotes };
}

/**
 * A position as the editor's choice writes it: `end`, `before:<field>`, `after:<field>`, `index:<n>` (the forms a
 * configured form slot's `"position"` takes: configured-forms.ts on the server).
 */
export function positionChoice(position: JsonValue | undefined): string {
  if (typeof position === 'number') return `index:${position}`;
  if (isPlainObject(position)) {
    if (typeof position.before === 'string') return `before:${position.before}`;
    if (typeof position.after === 'string') return `after:${position.after}`;
  }
  return 'end';
}

/** The `"position"` a choice stands for (undefined: the end, written by leaving the key out). */
export function positionOf(choice: string): JsonValue | undefined {
  const [kind, ...rest] = choice.split(':');
  const value = rest.join(':');
  if (kind === 'before' || kind === 'after') return { [kind]: value };
  if (kind === 'index') return Number.parseInt(value, 10);
  return undefined;
}
