import { FORM_FIELD_KEYWORD, isPlainObject, propsPathOf, type JsonSchema, type JsonValue } from '../../shared';
import type { RegisteredResource, RegisteredResources } from '../resources/registered-resource';
import { placedConfiguredForm, type ConfiguredFormSlot } from '../slots/configured-forms';
import { nearName } from '../slots/near-name';
import type { ContractRemotes, PlacedSlot, SlotProblem } from '../slots/slot-contract';
import { formSlots } from './code-slots';

/**
 * Every form slot (code's, and those of `forms`, REMOTES_CONFIG's and the placements') whose props name a field its
 * resource does not have, by a prop its component's schema marks with FORM_FIELD_KEYWORD. Each refuses the start or
 * the reload: such a slot reads nothing, and what it writes is dropped at the save. A form slot of a resource not
 * registered, or of a remote without a schema for it, is left to the checks that say so.
 */
export function formFieldProblemsOf(
  resources: RegisteredResources,
  forms: readonly ConfiguredFormSlot[],
  remotes: ContractRemotes,
): SlotProblem[] {
  const code = resources
    .list()
    .flatMap((resource) => formSlots(resource).flatMap(({ placed }) => formFieldProblems(placed, resource, remotes)));
  const configured = forms.flatMap((form) => configuredFormFieldProblems(resources, form, remotes));
  return [...code, ...configured];
}

/**
 * The props of one form slot of REMOTES_CONFIG or the placements that name a field its resource does not have (none
 * when the resource is not registered: the place checks say so). The remote registry leaves such a slot out of the
 * forms with it (RemoteRegistry.checkFormSlotsWith), so one whose remote answers after the start is not served.
 */
export function configuredFormFieldProblems(
  resources: RegisteredResources,
  form: ConfiguredFormSlot,
  remotes: ContractRemotes,
): SlotProblem[] {
  const resource = resources.get(form.resource);
  return resource === undefined ? [] : formFieldProblems(placedConfiguredForm(form), resource, remotes);
}

/**
 * The props of one form slot of `resource` that name a field it does not have: `props.field must name a field of
 * resource "invoices" (its fields: title, label, amount), got "titel"`, with the near name when there is one.
 */
export function formFieldProblems(
  placed: PlacedSlot,
  resource: RegisteredResource,
  remotes: ContractRemotes,
): SlotProblem[] {
  const { slot } = placed;
  const provider =
    placed.remote === null
      ? remotes.known.find((remote) => remote.components.includes(slot.component))
      : remotes.known.find((remote) => remote.name === placed.remote && remote.components.includes(slot.component));
  const schema = provider?.props?.[slot.component];
  if (provider === undefined || schema === undefined) return [];
  const fields = [...resource.fields.keys()];
  return namedFields(schema, slot.props, []).flatMap(({ segments, name }): SlotProblem[] => {
    if (resource.fields.has(name)) return [];
    const near = nearName(name, fields);
    const hint = near === undefined ? '' : `did you mean "${near}"? `;
    const quoted = JSON.stringify(name);
    return [
      {
        kind: 'props-invalid',
        location: placed.location,
        position: placed.position,
        source: placed.source,
        component: slot.component,
        remote: provider.name,
        path: propsPathOf(segments),
        message:
          `must name a field of resource "${resource.name}" (${hint}its fields: ${fields.join(', ')}), ` +
          `got ${quoted}`,
        quoted,
        blocking: true,
      },
    ];
  });
}

/**
 * The strings of `value` that `schema` marks as field names, each with its path among the props: through an
 * object's properties, an array's items and the branches of anyOf, oneOf and allOf (each place said once).
 */
function namedFields(
  schema: JsonSchema | undefined,
  value: JsonValue | undefined,
  segments: readonly string[],
): Array<{ segments: readonly string[]; name: string }> {
  if (!isPlainObject(schema) || value === undefined) return [];
  const found: Array<{ segments: readonly string[]; name: string }> = [];
  if (schema[FORM_FIELD_KEYWORD] === true && typeof value === 'string') found.push({ segments, name: value });
  const properties = schema.properties;
  if (isPlainObject(properties) && isPlainObject(value)) {
    for (const [key, child] of Object.entries(properties)) {
      if (Object.hasOwn(value, key)) found.push(...namedFields(child as JsonSchema, value[key], [...segments, key]));
    }
  }
  const items = schema.items;
  if (isPlainObject(items) && Array.isArray(value)) {
    value.forEach((item, index) => found.push(...namedFields(items as JsonSchema, item, [...segments, `${index}`])));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key];
    if (Array.isArray(branches))
      for (const branch of branches) found.push(...namedFields(branch as JsonSchema, value, segments));
  }
  const seen = new Set<string>();
  return found.filter(({ segments: at }) => {
    const key = JSON.stringify(at);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}
