import { describe, isPlainObject, Slot, SlotLocation, type SlotLocationValue } from '../../shared';

/** A `registerSlots` call that cannot be honoured; thrown at once so a bad registration stops the start. */
export class SlotRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlotRegistrationError';
  }
}

/** What `registerSlots` takes: location value -> one Slot or a list of Slots. */
export type SlotRegistrationMap = Readonly<Partial<Record<SlotLocationValue, Slot | readonly Slot[]>>>;

/** A frozen view of the registrations: locations in order of their first registration, slots in registration order. */
export type SlotRegistrySnapshot = ReadonlyMap<SlotLocation, readonly Slot[]>;

/**
 * The slots registered per location: those of code (`register`, appended) and those of the remotes configuration
 * (`replaceConfigured`, swapped whole on every reload), code first at each location. Readers get an immutable
 * snapshot and a `version` that changes with every change, so payloads built from a snapshot can be cached by
 * version.
 */
export class SlotRegistry {
  private current: SlotRegistrySnapshot = Object.freeze(new Map<SlotLocation, readonly Slot[]>());
  private registered: SlotRegistrySnapshot = this.current;
  private configured: ReadonlyArray<readonly [SlotLocation, Slot]> = [];
  private currentVersion = 0;

  get version(): number {
    return this.currentVersion;
  }

  snapshot(): SlotRegistrySnapshot {
    return this.current;
  }

  /**
   * Appends the given slots. The whole map is checked first: an unknown location or a value that is not a Slot
   * throws a SlotRegistrationError naming it, and nothing of that call is registered.
   */
  register(map: SlotRegistrationMap): void {
    const additions = validate(map).filter(([, slots]) => slots.length > 0);
    if (additions.length === 0) return;
    const next = new Map(this.registered);
    for (const [location, slots] of additions) {
      next.set(location, Object.freeze([...(next.get(location) ?? []), ...slots]));
    }
    this.registered = Object.freeze(next);
    this.rebuild();
  }

  /** The slots registered by code, per location, in registration order (configured ones not included). */
  registeredByCode(): SlotRegistrySnapshot {
    return this.registered;
  }

  /** Replaces the slots placed by configuration (already checked by its loader), kept in the order given. */
  replaceConfigured(slots: ReadonlyArray<{ location: SlotLocation; slot: Slot }>): void {
    this.configured = slots.map(({ location, slot }) => [location, slot] as const);
    this.rebuild();
  }

  private rebuild(): void {
    const next = new Map(this.registered);
    for (const [location, slot] of this.configured) {
      next.set(location, Object.freeze([...(next.get(location) ?? []), slot]));
    }
    this.current = Object.freeze(next);
    this.currentVersion++;
  }
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
    additions.push([checked, slotsOf(checked, map[key])]);
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
