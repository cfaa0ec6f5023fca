import { describe, isPlainObject, REMOTE_NAME_PATTERN, SlotLocation, type SlotLocationValue } from '../../shared';
import type { ContractRemotes, PlacedSlot, SlotProblem } from './slot-contract';
import { SlotRegistrationError } from './slot-registry';

/** What `app.allowRemotes` takes: location value -> the names of the remotes whose slots may fill it. */
export type AllowListMap = Readonly<Partial<Record<SlotLocationValue, readonly string[]>>>;

/** The lists REMOTES_CONFIG gives (its `"locations"`, checked): what of a configuration the allow-lists read. */
export interface ConfiguredAllowLists {
  readonly locationRemotes: ReadonlyMap<SlotLocation, readonly string[]>;
}

/**
 * Which remotes may fill a location: a list given by code (`app.allowRemotes`) or by REMOTES_CONFIG (`"locations"`),
 * the configuration's list replacing the code's for the locations it names (an operator narrows or widens it without
 * a release). A location with no list takes any remote. A slot of another remote is refused by the slot check: at
 * start, on reload, and at a release's publish.
 */
/**
 * app.allowRemotes() after ready(): the start checked the slots registered already, which a later list would skip.
 * Says where "before" is both for an app made with createApp and for one started by startServer.
 */
export const ALLOW_REMOTES_AFTER_READY =
  'allowRemotes() after app.ready(): call it before app.ready() (with startServer, in its `configure`), so that the ' +
  'slots registered are checked against it with the rest.';

export class LocationAllowLists {
  private readonly fromCode = new Map<SlotLocation, readonly string[]>();

  constructor(private readonly configuration: () => ConfiguredAllowLists) {}

  /** Sets code's lists (a later call replaces a location's list); an unknown location or remote name throws. */
  set(map: AllowListMap): void {
    const checked = checkAllowLists(map, 'allowRemotes', (message) => new SlotRegistrationError(message));
    for (const [location, remotes] of checked) this.fromCode.set(location, remotes);
  }

  /**
   * The lists' names that are no remote of `declared` (built in or in REMOTES_CONFIG, switched off or not), as
   * warnings: a misspelt name is a valid name, so nothing refused it, and the remote meant is kept out of the location.
   */
  undeclaredRemotes(declared: readonly string[], config: ConfiguredAllowLists = this.configuration()): string[] {
    const known = new Set(declared);
    return SlotLocation.cases().flatMap((location) => {
      const unknown = (this.allowed(location, config) ?? []).filter((name) => !known.has(name));
      if (unknown.length === 0) return [];
      const from = config.locationRemotes.has(location) ? 'REMOTES_CONFIG\'s "locations"' : 'allowRemotes';
      return [
        `The remotes allowed at ${location.value} (${from}) include ${unknown.map((name) => `"${name}"`).join(', ')}, ` +
          `which no remote is called (remotes: ${[...known].join(', ') || 'none'}): is a name misspelt?`,
      ];
    });
  }

  /** The remotes allowed at `location` under `config` (the one in use by default); undefined when any may. */
  allowed(location: SlotLocation, config: ConfiguredAllowLists = this.configuration()): readonly string[] | undefined {
    return config.locationRemotes.get(location) ?? this.fromCode.get(location);
  }
}

/** `{ "<location>": ["team_a", ...] }` checked: known locations, remote names of the remote-name pattern. */
export function checkAllowLists(
  value: unknown,
  where: string,
  fail: (message: string) => Error,
): Map<SlotLocation, readonly string[]> {
  if (!isPlainObject(value)) throw fail(`${where} takes an object mapping locations to lists of remote names.`);
  const lists = new Map<SlotLocation, readonly string[]>();
  for (const [key, remotes] of Object.entries(value)) {
    const location = SlotLocation.tryFrom(key);
    if (!location) {
      throw fail(
        `${where}: unknown location "${key}"; locations: ${SlotLocation.cases()
          .map((known) => known.value)
          .join(', ')}.`,
      );
    }
    if (
      !Array.isArray(remotes) ||
      !remotes.every((name) => typeof name === 'string' && REMOTE_NAME_PATTERN.test(name))
    ) {
      throw fail(`${where}: "${key}" must be a list of remote names, got ${describe(remotes)}.`);
    }
    lists.set(location, Object.freeze([...(remotes as string[])]));
  }
  return lists;
}

/**
 * The slots placed at a location whose remote is not on its allow-list: the remote a configured slot is placed for,
 * or the remote that provides a code slot's component. Only the slots placed at the location are held to its list
 * (a slot's content slots render inside it, as its own doing); form slots are not at a location.
 */
export function allowListProblems(
  placed: readonly PlacedSlot[],
  remotes: ContractRemotes,
  allowed: (location: SlotLocation) => readonly string[] | undefined,
): SlotProblem[] {
  const providers = new Map<string, string>();
  for (const remote of remotes.known) for (const component of remote.components) providers.set(component, remote.name);
  return placed.flatMap((item): SlotProblem[] => {
    const location = SlotLocation.tryFrom(item.location);
    if (location === undefined || item.position.includes('.content')) return [];
    const list = allowed(location);
    const remote = item.remote ?? providers.get(item.slot.component);
    if (list === undefined || remote === undefined || list.includes(remote)) return [];
    return [
      {
        kind: 'remote-not-allowed',
        location: item.location,
        position: item.position,
        source: item.source,
        component: item.slot.component,
        remote,
        path: null,
        message: `remote "${remote}" may not fill "${item.location}" (allowed: ${list.join(', ') || 'none'})`,
        blocking: true,
      },
    ];
  });
}
