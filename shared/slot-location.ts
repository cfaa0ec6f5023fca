/**
 * The named injection points of the admin interface, as one table: case name -> wire value and visibility.
 * Everything else (the static cases, the value union, `publicValues()`) is derived from it, so a location is added
 * in one line.
 *
 * Visibility: resource-*, dashboard-* and tenant-switcher exist only behind sign-in, so they are protected; the
 * sign-in page's own locations and the global chrome are public (served by `GET /slots` without a session).
 */
/** The props the host lays over a slot's own at the record action locations (`ResourceActionContext`). */
const RECORD_CONTEXT = ['resource', 'resourceId', 'record'] as const;

const LOCATIONS = {
  LOGIN_BEFORE_FORM: ['login-before-form', 'public'],
  LOGIN_AFTER_FORM: ['login-after-form', 'public'],
  LOGIN_SIDEBAR: ['login-sidebar', 'public'],
  RESOURCE_PAGE_ACTIONS: ['resource-page-actions', 'protected', RECORD_CONTEXT],
  RESOURCE_EDIT_ACTIONS: ['resource-edit-actions', 'protected', RECORD_CONTEXT],
  RESOURCE_BEFORE_FORM: ['resource-before-form', 'protected'],
  RESOURCE_AFTER_FORM: ['resource-after-form', 'protected'],
  RESOURCE_BEFORE_RELATIONS: ['resource-before-relations', 'protected'],
  RESOURCE_AFTER_RELATIONS: ['resource-after-relations', 'protected'],
  DASHBOARD_BEFORE_CARDS: ['dashboard-before-cards', 'protected'],
  DASHBOARD_AFTER_CARDS: ['dashboard-after-cards', 'protected'],
  GLOBAL_BEFORE_CONTENT: ['global-before-content', 'public'],
  GLOBAL_AFTER_CONTENT: ['global-after-content', 'public'],
  HEADER_BANNER: ['header-banner', 'public'],
  TENANT_SWITCHER: ['tenant-switcher', 'protected'],
} as const satisfies Record<
  string,
  readonly [value: string, visibility: 'public' | 'protected', contextProps?: readonly string[]]
>;

/** The enum case names, e.g. `LOGIN_BEFORE_FORM`. */
export type SlotLocationName = keyof typeof LOCATIONS;
/** The wire names of the locations, as a literal union so payload types are checked by the compiler. */
export type SlotLocationValue = (typeof LOCATIONS)[SlotLocationName][0];

/**
 * One location. Mirrors a backed enum (`SlotLocation.LOGIN_BEFORE_FORM.value === 'login-before-form'`): one frozen
 * instance per case, created here and nowhere else.
 */
class SlotLocationCase {
  private static readonly all: readonly SlotLocationCase[] = Object.freeze(
    (Object.keys(LOCATIONS) as SlotLocationName[]).map((name) => {
      const [value, visibility, contextProps = []]: readonly [SlotLocationValue, string, (readonly string[])?] =
        LOCATIONS[name];
      return new SlotLocationCase(name, value, visibility === 'public', Object.freeze([...contextProps]));
    }),
  );

  private static readonly byValue: ReadonlyMap<string, SlotLocationCase> = new Map(
    SlotLocationCase.all.map((location) => [location.value, location]),
  );

  private constructor(
    /** The enum case name, e.g. `LOGIN_BEFORE_FORM`. */
    readonly name: SlotLocationName,
    /** The kebab-case location name used on the wire, e.g. `login-before-form`. */
    readonly value: SlotLocationValue,
    private readonly publicLocation: boolean,
    /** The props the host adds to every slot here (the record on the page at the action locations); often none. */
    readonly contextProps: readonly string[],
  ) {
    Object.freeze(this);
  }

  /** True when the location may be served without a session (through `GET /slots`). */
  isPublic(): boolean {
    return this.publicLocation;
  }

  /** Every case, in declaration order. */
  static cases(): readonly SlotLocationCase[] {
    return SlotLocationCase.all;
  }

  /** The values of all public cases, in declaration order. */
  static publicValues(): SlotLocationValue[] {
    return SlotLocationCase.all.filter((location) => location.isPublic()).map((location) => location.value);
  }

  /** The case for a value, or undefined (the `tryFrom` of a backed enum). */
  static tryFrom(value: unknown): SlotLocationCase | undefined {
    return typeof value === 'string' ? SlotLocationCase.byValue.get(value) : undefined;
  }

  /** The case for a value; throws an error naming the value and listing the valid ones. */
  static from(value: unknown): SlotLocationCase {
    const location = SlotLocationCase.tryFrom(value);
    if (!location) throw new UnknownSlotLocationError(value);
    return location;
  }

  toString(): string {
    return this.value;
  }

  toJSON(): string {
    return this.value;
  }
}

/** The class with one static member per case of the table: `SlotLocation.LOGIN_BEFORE_FORM`. */
export const SlotLocation = Object.freeze(
  Object.assign(
    SlotLocationCase,
    Object.fromEntries(SlotLocationCase.cases().map((location) => [location.name, location])) as {
      readonly [Name in SlotLocationName]: SlotLocationCase;
    },
  ),
);
export type SlotLocation = SlotLocationCase;

export class UnknownSlotLocationError extends Error {
  constructor(readonly received: unknown) {
    super(
      `Unknown slot location ${JSON.stringify(received) ?? String(received)}. ` +
        `Valid locations: ${SlotLocation.cases()
          .map((location) => location.value)
          .join(', ')}.`,
    );
    this.name = 'UnknownSlotLocationError';
  }
}
