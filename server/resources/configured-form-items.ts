import { isDeepStrictEqual } from 'node:util';
import { Slot, type FormItem } from '../../shared';
import { placedConfiguredForm, type ConfiguredFormSlot } from '../slots/configured-forms';
import type { SlotProblem } from '../slots/slot-contract';
import { Field } from './field';
import type { RegisteredResource, RegisteredResources } from './registered-resource';

/**
 * Where a configured form slot goes among `resource`'s items as code lists them: the index it is inserted before
 * (the number of items: last), or why its position names no place in that form.
 */
export function insertionIndex(
  resource: RegisteredResource,
  configured: ConfiguredFormSlot,
): { index: number } | { problem: string } {
  const { position } = configured;
  const count = resource.items.length;
  if ('end' in position) return { index: count };
  if ('index' in position) {
    return position.index <= count
      ? { index: position.index }
      : {
          problem:
            `position ${position.index} is past the end of the form of "${resource.name}" ` +
            `(${count} items: give 0 to ${count})`,
        };
  }
  const name = 'before' in position ? position.before : position.after;
  const at = resource.items.findIndex((item) => item instanceof Field && item.name === name);
  if (at === -1) {
    return {
      problem: `resource "${resource.name}" has no field "${name}" (its fields: ${[...resource.fields.keys()].join(', ')})`,
    };
  }
  return { index: 'before' in position ? at : at + 1 };
}

/**
 * The form's items with the configured form slots among them: each at its place, several at one place in the
 * order given (code's item at that index after them). Slots whose position names no place are left out (the slot
 * check refuses them). Each item comes with its index in the result, for the inspector.
 */
export function formItemsWith(
  resource: RegisteredResource,
  configured: readonly ConfiguredFormSlot[],
): { fields: FormItem[]; placed: Array<{ configured: ConfiguredFormSlot; position: number }> } {
  const before = new Map<number, ConfiguredFormSlot[]>();
  for (const slot of configured) {
    if (slot.resource !== resource.name) continue;
    const found = insertionIndex(resource, slot);
    if ('index' in found) before.set(found.index, [...(before.get(found.index) ?? []), slot]);
  }
  const fields: FormItem[] = [];
  const placed: Array<{ configured: ConfiguredFormSlot; position: number }> = [];
  const code = resource.definition.fields;
  for (let index = 0; index <= code.length; index++) {
    for (const slot of before.get(index) ?? []) {
      placed.push({ configured: slot, position: fields.length });
      fields.push({ type: 'slot', component: slot.slot.component, props: slot.slot.toEntry().props });
    }
    const item = code[index];
    if (item !== undefined) fields.push(item);
  }
  return { fields, placed };
}

/**
 * The configured form slots that repeat one the form has already: the same component with the same props, placed by
 * code or by a configured slot before it (the file's, the placements'). Published, the form would show it twice,
 * which an operator adding in the placements editor a form slot code already places cannot see otherwise (the editor
 * lists the draft's). Not blocking: two alike may be meant (at two places), and the form still works.
 */
export function configuredFormTwiceProblems(
  resources: RegisteredResources,
  forms: readonly ConfiguredFormSlot[],
): SlotProblem[] {
  return forms.flatMap((configured, index): SlotProblem[] => {
    const resource = resources.get(configured.resource);
    if (!resource) return [];
    const alike = (slot: Slot) =>
      slot.component === configured.slot.component &&
      isDeepStrictEqual(slot.toEntry().props, configured.slot.toEntry().props);
    const byCode = resource.items.some((item) => item instanceof Slot && alike(item));
    const earlier = forms.slice(0, index).find((other) => other.resource === configured.resource && alike(other.slot));
    if (!byCode && earlier === undefined) return [];
    const by = byCode
      ? 'code'
      : `remote "${earlier!.remote}" in ${earlier!.source === 'placements' ? 'the placements' : 'REMOTES_CONFIG'}`;
    const message =
      `the form of "${configured.resource}" has ${configured.slot.component} with the same props already ` +
      `(placed by ${by}): the form would show it twice. Remove one, or give it other props`;
    return [formSlotProblem(configured, 'placed-twice', message, false)];
  });
}

/** A problem of a configured form slot, said of it where the slot check says a slot's (its form, its position). */
function formSlotProblem(
  configured: ConfiguredFormSlot,
  kind: SlotProblem['kind'],
  message: string,
  blocking: boolean,
): SlotProblem {
  const placed = placedConfiguredForm(configured);
  return {
    kind,
    location: placed.location,
    position: placed.position,
    source: 'configuration',
    component: configured.slot.component,
    remote: configured.remote,
    path: null,
    message,
    blocking,
  };
}

/**
 * The configured form slots that name no place: a resource nobody registered, a field the form lacks, an index
 * past its end. Each refuses the start or the reload, naming the remote, the resource and the problem.
 */
export function configuredFormPlaceProblems(
  resources: RegisteredResources,
  forms: readonly ConfiguredFormSlot[],
): SlotProblem[] {
  return forms.flatMap((configured): SlotProblem[] => {
    const resource = resources.get(configured.resource);
    const problem = resource
      ? insertionIndex(resource, configured)
      : {
          problem:
            `no resource "${configured.resource}" is registered ` +
            `(resources: ${
              resources
                .list()
                .map((each) => each.name)
                .join(', ') || 'none'
            })`,
        };
    if (!('problem' in problem)) return [];
    return [formSlotProblem(configured, 'placement-invalid', problem.problem, true)];
  });
}
