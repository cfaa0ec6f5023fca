import {
  describe,
  isPlainObject,
  ruleNeedsUser,
  Slot,
  SlotLocation,
  type CatalogueSlot,
  type SlotLocationValue,
} from '../../shared';
import { duplicateIdMessage, isPlacedRelative, orderSlots, placementProblems, SlotIdIndex } from './slot-order';

/** A `registerSlots` call that cannot be honoured; thrown at once so a bad registration stops the start. */
export class SlotRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlotRegistrationError';
  }
}

/** What `registerSlots` takes: location value -> one Slot or a list of Slots. */
export type SlotRegistrationMap = Readonly<Partial<Record<SlotLocationValue, Slot | readonly Slot[]>>>;

/** A frozen view of the registrations: locations in order of their first registration, slots in resolved order. */
export type SlotRegistrySnapshot = ReadonlyMap<SlotLocation, readonly Slot[]>;

/** A slot as it stands at its location now: its id, and who placed it (the remote, for a configured slot). */
export interface PlacedSlotInfo {
  slot: Slot;
  id: string;
  source: CatalogueSlot['source'];
  remote: string | null;
}

/** What `replaceConfigured` takes: a slot of the configuration, at its location, for its remote. */
type ConfiguredEntry = { location: SlotLocation; slot: Slot; remote?: string; source?: 'placements' };

/**
 * The slots registered per location: those of code (`register`, appended) and those of the remotes configuration
 * (`replaceConfigured`, swapped whole on every reload), code first at each location. Readers get an immutable
 * snapshot and a `version` that changes with every change, so payloads built from a snapshot can be cached by
 * version.
 */
export class SlotRegistry {
  private current: SlotRegistrySnapshot = Object.freeze(new Map<SlotLocation, readonly Slot[]>());
  private registered: SlotRegistrySnapshot = this.current;
  /** The slots placed by configuration, per location, in the order given. */
  private configured: ReadonlyMap<SlotLocation, readonly Unplaced[]> = new Map();
  private placements: ReadonlyMap<SlotLocation, readonly PlacedSlotInfo[]> = new Map();
  /** Locations registered to since they were last ordered: ordered when the registry is next read. */
  private readonly unordered = new Set<SlotLocation>();
  /** The ids of the code's slots per location so far, so that a registration checks only its own slots' ids. */
  private readonly codeIds = new Map<SlotLocation, SlotIdIndex>();
  private currentVersion = 0;

  get version(): number {
    return this.currentVersion;
  }

  snapshot(): SlotRegistrySnapshot {
    this.orderPending();
    return this.current;
  }

  /** The slots of each location in resolved order, with their ids and who placed them (the location catalogue). */
  placed(): ReadonlyMap<SlotLocation, readonly PlacedSlotInfo[]> {
    this.orderPending();
    return this.placements;
  }

  /**
   * Appends the given slots. The whole map is checked first: an unknown location or a value that is not a Slot
   * throws a SlotRegistrationError naming it, and nothing of that call is registered. The locations a call names are
   * ordered when the registry is next read, so a host that registers its slots one call at a time (at start-up,
   * before anything reads them) pays about what one call for them all costs.
   */
  register(map: SlotRegistrationMap): void {
    const additions = validate(map).filter(([, slots]) => slots.length > 0);
    if (additions.length === 0) return;
    const accepted = additions.map(([location, slots]) => ({
      location,
      slots,
      ids: this.checkAppend(location, slots),
    }));
    const next = new Map(this.registered);
    for (const { location, slots, ids } of accepted) {
      next.set(location, Object.freeze([...(next.get(location) ?? []), ...slots]));
      this.idIndexOf(location).add(slots, ids);
    }
    this.registered = Object.freeze(next);
    for (const { location } of accepted) this.unordered.add(location);
    this.currentVersion++;
  }

  /**
   * The ids `slots` get appended to the code's at `location`, or a SlotRegistrationError for what cannot be mended
   * by a later registration: a duplicate id, or a cycle. A missing target may be registered later (or come from
   * REMOTES_CONFIG): the slot check reports it at ready(). A duplicate id whose later slot is the configuration's is
   * the configuration's fault, not this call's: the slot check reports it naming the file and the remote. Without a
   * slot placed before or after another, only the new slots' ids are looked up: no cycle is possible.
   */
  private checkAppend(location: SlotLocation, slots: readonly Slot[]): string[] {
    const index = this.idIndexOf(location);
    const { ids, duplicate } = index.idsOf(slots);
    const configured = (this.configured.get(location) ?? []).map((item) => item.slot);
    if (index.constrained || slots.some(isPlacedRelative) || configured.some(isPlacedRelative)) {
      const byCode = [...(this.registered.get(location) ?? []), ...slots];
      const fatal = placementProblems(location.value, [...byCode, ...configured]).filter(
        (problem) =>
          problem.kind !== 'missing-target' && !(problem.index !== undefined && problem.index >= byCode.length),
      );
      if (fatal.length > 0) throw new SlotRegistrationError(`registerSlots: ${fatal[0]!.message}.`);
    } else if (duplicate !== undefined) {
      throw new SlotRegistrationError(`registerSlots: ${duplicateIdMessage(location.value, duplicate)}.`);
    }
    return ids;
  }

  /** The ids of the code's slots at `location`, made from its registrations the first time they are asked for. */
  private idIndexOf(location: SlotLocation): SlotIdIndex {
    let index = this.codeIds.get(location);
    if (index === undefined) {
      index = new SlotIdIndex();
      const slots = this.registered.get(location) ?? [];
      index.add(slots, index.idsOf(slots).ids);
      this.codeIds.set(location, index);
    }
    return index;
  }

  /** The slots registered by code, per location, in registration order (configured ones not included). */
  registeredByCode(): SlotRegistrySnapshot {
    return this.registered;
  }

  /**
   * A new registry with this one's registrations and those of `map` after them, checked as `register` checks them
   * (throws the same errors); this one is left as it is. What a registration would make, to check it first.
   */
  withRegistered(map: SlotRegistrationMap): SlotRegistry {
    const other = new SlotRegistry();
    other.registered = this.registered;
    other.configured = this.configured;
    other.register(map);
    return other;
  }

  /**
   * A new registry with this one's code registrations and `slots` as its configured ones: what this registry would
   * hold, in what order, were they the configuration in force (the placements editor's preview of a draft).
   */
  withConfigured(slots: readonly ConfiguredEntry[]): SlotRegistry {
    const other = new SlotRegistry();
    other.registered = this.registered;
    other.replaceConfigured(slots);
    return other;
  }

  /**
   * Replaces the slots placed by configuration (already checked by its loader), kept in the order given: the file's,
   * and the placements revision's (`source: 'placements'`).
   */
  replaceConfigured(slots: readonly ConfiguredEntry[]): void {
    const configured = new Map<SlotLocation, Unplaced[]>();
    for (const { location, slot, remote, source = 'configuration' } of slots) {
      const list = configured.get(location) ?? [];
      list.push({ slot, source, remote: remote ?? null });
      configured.set(location, list);
    }
    this.configured = configured;
    this.publish(this.locations());
    this.currentVersion++;
  }

  /**
   * One location's slots in resolved order (slot-order.ts): code's, then the configuration's. A placement problem
   * the slot check reports (a target left out, a cycle in a configuration that was refused) orders what it can
   * rather than failing a request.
   */
  private order(location: SlotLocation, code: readonly Slot[]): LocationOrder {
    const infos: Unplaced[] = code.map((slot) => ({ slot, source: 'code', remote: null }));
    infos.push(...(this.configured.get(location) ?? []));
    const ordered = orderSlots(
      location.value,
      infos.map((info) => info.slot),
    );
    return {
      slots: ordered.slots,
      placed: Object.freeze(
        ordered.order.map((at, index) => Object.freeze({ ...infos[at]!, id: ordered.ids[index]! })),
      ),
    };
  }

  /** Every location with a slot: code's in order of first registration, then those only configuration fills. */
  private locations(): SlotLocation[] {
    return [...new Set([...this.registered.keys(), ...this.configured.keys()])];
  }

  /** Orders the locations registered to since the last read, if any: the version moved when they were. */
  private orderPending(): void {
    if (this.unordered.size > 0) this.publish([...this.unordered]);
  }

  /** The snapshot with `changed` locations ordered anew and the others as they were. */
  private publish(changed: readonly SlotLocation[]): void {
    const ordered = new Map(
      changed.map((location) => [location, this.order(location, this.registered.get(location) ?? [])]),
    );
    const next = new Map<SlotLocation, readonly Slot[]>();
    const placements = new Map<SlotLocation, readonly PlacedSlotInfo[]>();
    for (const location of this.locations()) {
      const order = ordered.get(location);
      next.set(location, order?.slots ?? this.current.get(location) ?? []);
      placements.set(location, order?.placed ?? this.placements.get(location) ?? []);
    }
    this.current = Object.freeze(next);
    this.placements = placements;
    this.unordered.clear();
  }
}

/** A slot at its location before the order gives it its id. */
type Unplaced = Omit<PlacedSlotInfo, 'id'>;

/** One location ordered: its slots, and the same with their ids and sources. */
interface LocationOrder {
  slots: readonly Slot[];
  placed: readonly PlacedSlotInfo[];
}

function validate(map: unknown): Array<[SlotLocation, readonly Slot[]]> {
  if (!isPlainObject(map)) {
    throw new SlotRegistrationError(
      'registerSlots takes a plain object mapping location values to a Slot or a list of Slots ' +
        `(e.g. { '${SlotLocation.LOGIN_BEFORE_FORM.value}': Slot.make('Notice') }).`,
    );
  }
  const additions: Array<[SlotLocation, readonly Slot[]]> = [];
  for (const key of Object.keys(map)) {
    const location = SlotLocation.tryFrom(key);
    if (!location) {
      // SlotLocation.from names the location and lists the valid ones.
      try {
        SlotLocation.from(key);
      } catch (error) {
        throw new SlotRegistrationError(`registerSlots: ${(error as Error).message}`);
      }
    }
    const checked = location as SlotLocation;
    const slots = slotsOf(checked, map[key]);
    refuseUserRulesInPublic(checked, slots);
    additions.push([checked, slots]);
  }
  return additions;
}

function slotsOf(location: SlotLocation, value: unknown): readonly Slot[] {
  if (value instanceof Slot) return [value];
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => {
      if (!(item instanceof Slot)) {
        throw new SlotRegistrationError(
          `registerSlots: item ${index} for location "${location.value}" is ${describe(item)}, not a Slot. ` +
            'Create slots with Slot.make(component, props).',
        );
      }
    });
    return value as Slot[];
  }
  throw new SlotRegistrationError(
    `registerSlots: the value for location "${location.value}" is ${describe(value)}, not a Slot or a list of Slots. ` +
      'Create slots with Slot.make(component, props).',
  );
}

/**
 * A public location is served by `GET /slots` to callers without a session: a rule over the user's roles, permissions or tenant
 * could not be evaluated there, so such a slot is refused rather than shown to everyone or to no one. A rule over
 * flags alone could be (with the global flags), but `GET /slots` is one cached answer for every visitor and does not
 * evaluate rules: it is refused too, saying so.
 */
export function refuseUserRulesInPublic(location: SlotLocation, slots: readonly Slot[], where = 'registerSlots'): void {
  if (!location.isPublic()) return;
  const ruled = slots.find((slot) => slot.placement.visibleWhen !== undefined);
  if (ruled === undefined) return;
  const rule = ruled.placement.visibleWhen!;
  throw new SlotRegistrationError(
    ruleNeedsUser(rule)
      ? `${where}: slot "${ruled.component}" at the public location "${location.value}" has a "visibleWhen" rule over ` +
        "the user's roles, permissions or tenant, which GET /slots cannot evaluate without a session; place it at a " +
        'protected location, or drop the rule.'
      : `${where}: slot "${ruled.component}" at the public location "${location.value}" has a "visibleWhen" rule; ` +
        'GET /slots (one cached answer for every visitor) does not evaluate rules, even over flags: place it at a ' +
        'protected location, or drop the rule.',
  );
}
