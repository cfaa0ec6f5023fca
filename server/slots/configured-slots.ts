import { describe, InvalidSlotError, isPlainObject, Slot, SlotLocation, type SlotPlacedBy } from '../../shared';
import { RemotesConfigError } from '../config/remotes-config-error';
import { placedSlots, type PlacedSlot } from './slot-contract';
import { refuseUserRulesInPublic, SlotRegistrationError } from './slot-registry';

/** A slot placed by REMOTES_CONFIG (a remote entry's `"slots"`), for one of that remote's components. */
export interface ConfiguredSlot {
  remote: string;
  location: SlotLocation;
  slot: Slot;
  /**
   * Who placed it, when not the REMOTES_CONFIG file: the placements revision in force, whose slots join the file's
   * (placements-document.ts) and are listed apart from them (the location catalogue, the inspector).
   */
  source?: 'placements';
}

/** Who placed a slot or form slot of the configuration in force, as listed: the placements revision, or the file. */
export function configuredSource(configured: Pick<ConfiguredSlot, 'source'>): SlotPlacedBy {
  return configured.source ?? 'configuration';
}

const PLACEMENT_KEYS = ['id', 'priority', 'before', 'after', 'visibleWhen'] as const;
const SLOT_KEYS = new Set(['component', 'props', 'content', ...PLACEMENT_KEYS]);

/**
 * Reads a remote entry's `"slots"`: the shape `registerSlots` takes, in JSON,
 * `{ "<location>": [ { "component": "InvoiceBanner", "props": { ... } } ] }`, each item checked by the same rules
 * as a code registration (a known location, `Slot.make`'s name and props checks). Errors name the remote, the
 * location and the item.
 */
export function parseConfiguredSlots(value: unknown, remote: string, where: string): ConfiguredSlot[] {
  if (!isPlainObject(value)) {
    throw new RemotesConfigError(
      `${where}: "slots" must map locations to lists of { "component", "props" }, got ${describe(value)}.`,
    );
  }
  const slots: ConfiguredSlot[] = [];
  for (const [key, items] of Object.entries(value)) {
    const location = SlotLocation.tryFrom(key);
    if (!location) {
      throw new RemotesConfigError(
        `${where}: "slots" names the unknown location "${key}"; locations: ${SlotLocation.cases()
          .map((known) => known.value)
          .join(', ')}.`,
      );
    }
    const list = Array.isArray(items) ? items : [items];
    list.forEach((item: unknown, index) => {
      slots.push(parseConfiguredSlot(item, location, remote, `${where}, slots["${key}"][${index}]`));
    });
  }
  return slots;
}

/**
 * One item of a `"slots"` list at `location`, checked as a code registration is; a RemotesConfigError names `at`.
 * The placements editor checks a document's items one by one with it, to report every item's problem at once.
 */
export function parseConfiguredSlot(item: unknown, location: SlotLocation, remote: string, at: string): ConfiguredSlot {
  const slot = parseSlot(item, at);
  try {
    refuseUserRulesInPublic(location, [slot], at);
  } catch (error) {
    if (error instanceof SlotRegistrationError) throw new RemotesConfigError(error.message);
    throw error;
  }
  return { remote, location, slot };
}

function parseSlot(item: unknown, where: string): Slot {
  if (!isPlainObject(item) || typeof item.component !== 'string') {
    throw new RemotesConfigError(
      `${where} must be { "component": "<Name>", "props": { ... } }, got ${describe(item)}.`,
    );
  }
  const unknownKeys = Object.keys(item).filter((key) => !SLOT_KEYS.has(key));
  if (unknownKeys.length > 0) {
    throw new RemotesConfigError(
      `${where}: unknown key(s) ${unknownKeys.join(', ')}; allowed: ${[...SLOT_KEYS].join(', ')}.`,
    );
  }
  if (item.content !== undefined && item.content !== null && typeof item.content !== 'string') {
    // Slots nest in code (a Slot as content); in JSON, content is the component's text.
    throw new RemotesConfigError(`${where}: "content" must be text (a string), got ${describe(item.content)}.`);
  }
  try {
    const slot = Slot.untyped(item.component, (item.props ?? {}) as Record<string, unknown>, item.content ?? null);
    const placement = Object.fromEntries(PLACEMENT_KEYS.filter((key) => key in item).map((key) => [key, item[key]]));
    return Object.keys(placement).length === 0 ? slot : slot.placed(placement);
  } catch (error) {
    if (error instanceof InvalidSlotError) throw new RemotesConfigError(`${where}: ${error.message}`);
    throw error;
  }
}

/** The configured slots whose component the remote does not provide, as messages naming slot, location and remote. */
export function slotsOutsideRemote(slots: readonly ConfiguredSlot[], components: readonly string[]): string[] {
  const provided = new Set(components);
  return slots
    .filter((configured) => !provided.has(configured.slot.component))
    .map(
      (configured) =>
        `slot "${configured.slot.component}" at "${configured.location.value}": remote "${configured.remote}" ` +
        `provides no component "${configured.slot.component}" (it provides ${components.join(', ') || 'none'})`,
    );
}

/** Configured slots as placed slots, numbered per location in file order (content slots after their parent). */
export function placedConfiguredSlots(
  slots: readonly ConfiguredSlot[],
): Array<{ configured: ConfiguredSlot; placed: PlacedSlot[] }> {
  const counts = new Map<string, number>();
  return slots.map((configured) => {
    const index = counts.get(configured.location.value) ?? 0;
    counts.set(configured.location.value, index + 1);
    const location = configured.location.value;
    // Said as placed: an editor's slot named as the file's sends a remote team to REMOTES_CONFIG to mend it.
    const placed = placedSlots(location, [configured.slot], configuredSource(configured), configured.remote, '', index);
    return { configured, placed };
  });
}
