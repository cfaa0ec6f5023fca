import { describe, InvalidSlotError, isPlainObject, Slot, SLUG_PATTERN } from '../../shared';
import type { PlacedSlot } from './slot-contract';
import type { ConfiguredSlot } from './configured-slots';
import { RemotesConfigError } from '../config/remotes-config-error';

/**
 * Where a configured form slot goes among a resource form's items: at an index of the items as code lists them
 * (fields and code's form slots together, as `fields()` returns them; their number puts it last), right before or
 * after a field named by its name, or (`end`) after every item.
 */
export type FormSlotPosition = { index: number } | { before: string } | { after: string } | { end: true };

/** A form slot placed by configuration (a remote entry's `"forms"`), for one of that remote's form components. */
export interface ConfiguredFormSlot {
  remote: string;
  /** The resource whose form it sits in (checked against the registered resources by the slot check). */
  resource: string;
  slot: Slot;
  position: FormSlotPosition;
  /** The placements revision in force's, when not the REMOTES_CONFIG file's: as a configured slot's. */
  source?: ConfiguredSlot['source'];
}

const FORM_SLOT_KEYS = new Set(['component', 'props', 'position']);

/**
 * Reads a remote entry's `"forms"`: `{ "<resource>": [ { "component", "props", "position" } ] }`, each item checked
 * as a code form slot is when it is made (a component name, plain JSON props up to 16 KiB, no content) and its
 * position for its shape. What needs the resources and the remote's descriptor (the resource exists, the position
 * is among its fields, the component is one of this remote's form components, the props match its schema) is the
 * slot check's (formPlacementProblems, and the contract on `inForm` slots). Errors name the remote, the resource
 * and the item.
 *
 * Callable with any JSON document of that shape: REMOTES_CONFIG's entries, and placements kept elsewhere in the
 * same JSON.
 * @param errorOf makes the error thrown (a RemotesConfigError by default)
 */
export function parseConfiguredForms(
  value: unknown,
  remote: string,
  where: string,
  errorOf: (message: string) => Error = (message) => new RemotesConfigError(message),
): ConfiguredFormSlot[] {
  if (!isPlainObject(value)) {
    throw errorOf(
      `${where}: "forms" must map resource names to lists of { "component", "props", "position" }, got ${describe(value)}.`,
    );
  }
  const forms: ConfiguredFormSlot[] = [];
  for (const [resource, items] of Object.entries(value)) {
    if (!SLUG_PATTERN.test(resource)) {
      throw errorOf(`${where}: "forms" names "${resource}", which is not a resource name (${SLUG_PATTERN}).`);
    }
    if (!Array.isArray(items)) {
      throw errorOf(`${where}: "forms" of resource "${resource}" must be a list, got ${describe(items)}.`);
    }
    items.forEach((item: unknown, index) => {
      const at = `${where}, forms["${resource}"][${index}]`;
      forms.push({ remote, resource, ...parseFormSlot(item, at, errorOf) });
    });
  }
  return forms;
}

function parseFormSlot(
  item: unknown,
  where: string,
  errorOf: (message: string) => Error,
): { slot: Slot; position: FormSlotPosition } {
  if (!isPlainObject(item) || typeof item.component !== 'string') {
    throw errorOf(
      `${where} must be { "component": "<Name>", "props": { ... }, "position": ... }, got ${describe(item)}.`,
    );
  }
  const unknownKeys = Object.keys(item).filter((key) => !FORM_SLOT_KEYS.has(key));
  if (unknownKeys.length > 0) {
    throw errorOf(
      `${where}: unknown key(s) ${unknownKeys.join(', ')}; allowed: ${[...FORM_SLOT_KEYS].join(', ')} ` +
        '(a form slot takes props only: no content, no placement rules).',
    );
  }
  let slot: Slot;
  try {
    slot = Slot.untyped(item.component, (item.props ?? {}) as Record<string, unknown>);
  } catch (error) {
    if (error instanceof InvalidSlotError) throw errorOf(`${where}: ${error.message}`);
    throw error;
  }
  return { slot, position: parsePosition(item.position, where, errorOf) };
}

function parsePosition(value: unknown, where: string, errorOf: (message: string) => Error): FormSlotPosition {
  if (value === undefined) return { end: true };
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return { index: value };
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    const [key] = keys;
    if (keys.length === 1 && (key === 'before' || key === 'after')) {
      const field = value[key];
      if (typeof field === 'string' && field !== '') return key === 'before' ? { before: field } : { after: field };
    }
  }
  throw errorOf(
    `${where}: "position" must be an index among the form's items (an integer from 0), ` +
      `{ "before": "<field>" } or { "after": "<field>" }, got ${describe(value)}.`,
  );
}

/** `[after "title"]`: how a slot problem names a configured form slot's position. */
export function describeFormPosition(position: FormSlotPosition): string {
  if ('index' in position) return `[${position.index}]`;
  if ('before' in position) return `[before "${position.before}"]`;
  if ('after' in position) return `[after "${position.after}"]`;
  return '[end]';
}

/** A configured form slot as the slot check takes it: among the fields of its resource's form, for its remote. */
export function placedConfiguredForm(configured: ConfiguredFormSlot): PlacedSlot {
  return {
    location: `resource form "${configured.resource}"`,
    position: describeFormPosition(configured.position),
    slot: configured.slot,
    source: 'configuration',
    remote: configured.remote,
    inForm: true,
  };
}
