/**
 * The named injection points of the admin interface.
 *
 * Mirrors a backed enum (`SlotLocation.LOGIN_BEFORE_FORM.value === 'login-before-form'`): one frozen instance
 * per case, created here and nowhere else. Visibility follows DESIGN.md decision 1: resource-*, dashboard-* and
 * tenant-switcher exist only behind sign-in, so they are protected.
 */
export class SlotLocation {
  static readonly LOGIN_BEFORE_FORM = new SlotLocation('LOGIN_BEFORE_FORM', 'login-before-form', true);
  static readonly LOGIN_AFTER_FORM = new SlotLocation('LOGIN_AFTER_FORM', 'login-after-form', true);
  static readonly LOGIN_SIDEBAR = new SlotLocation('LOGIN_SIDEBAR', 'login-sidebar', true);
  static readonly RESOURCE_PAGE_ACTIONS = new SlotLocation('RESOURCE_PAGE_ACTIONS', 'resource-page-actions', false);
  static readonly RESOURCE_EDIT_ACTIONS = new SlotLocation('RESOURCE_EDIT_ACTIONS', 'resource-edit-actions', false);
  static readonly RESOURCE_BEFORE_FORM = new SlotLocation('RESOURCE_BEFORE_FORM', 'resource-before-form', false);
  static readonly RESOURCE_AFTER_FORM = new SlotLocation('RESOURCE_AFTER_FORM', 'resource-after-form', false);
  static readonly RESOURCE_BEFORE_RELATIONS = new SlotLocation(
    'RESOURCE_BEFORE_RELATIONS',
    'resource-before-relations',
    false,
  );
  static readonly RESOURCE_AFTER_RELATIONS = new SlotLocation('RESOURCE_AFTER_RELATIONS', 'resource-after-relations', false);
  static readonly DASHBOARD_BEFORE_CARDS = new SlotLocation('DASHBOARD_BEFORE_CARDS', 'dashboard-before-cards', false);
  static readonly DASHBOARD_AFTER_CARDS = new SlotLocation('DASHBOARD_AFTER_CARDS', 'dashboard-after-cards', false);
  static readonly GLOBAL_BEFORE_CONTENT = new SlotLocation('GLOBAL_BEFORE_CONTENT', 'global-before-content', true);
  static readonly GLOBAL_AFTER_CONTENT = new SlotLocation('GLOBAL_AFTER_CONTENT', 'global-after-content', true);
  static readonly HEADER_BANNER = new SlotLocation('HEADER_BANNER', 'header-banner', true);
  static readonly TENANT_SWITCHER = new SlotLocation('TENANT_SWITCHER', 'tenant-switcher', false);

  private static readonly all: readonly SlotLocation[] = Object.freeze([
    SlotLocation.LOGIN_BEFORE_FORM,
    SlotLocation.LOGIN_AFTER_FORM,
    SlotLocation.LOGIN_SIDEBAR,
    SlotLocation.RESOURCE_PAGE_ACTIONS,
    SlotLocation.RESOURCE_EDIT_ACTIONS,
    SlotLocation.RESOURCE_BEFORE_FORM,
    SlotLocation.RESOURCE_AFTER_FORM,
    SlotLocation.RESOURCE_BEFORE_RELATIONS,
    SlotLocation.RESOURCE_AFTER_RELATIONS,
    SlotLocation.DASHBOARD_BEFORE_CARDS,
    SlotLocation.DASHBOARD_AFTER_CARDS,
    SlotLocation.GLOBAL_BEFORE_CONTENT,
    SlotLocation.GLOBAL_AFTER_CONTENT,
    SlotLocation.HEADER_BANNER,
    SlotLocation.TENANT_SWITCHER,
  ]);

  private static readonly byValue: ReadonlyMap<string, SlotLocation> = new Map(
    SlotLocation.all.map((location) => [location.value, location]),
  );

  private constructor(
    /** The enum case name, e.g. `LOGIN_BEFORE_FORM`. */
    readonly name: string,
    /** The kebab-case location name used on the wire, e.g. `login-before-form`. */
    readonly value: SlotLocationValue,
    private readonly publicLocation: boolean,
  ) {
    Object.freeze(this);
  }

  /** True when the location may be served without a session (through `GET /slots`). */
  isPublic(): boolean {
    return this.publicLocation;
  }

  /** Every case, in declaration order. */
  static cases(): readonly SlotLocation[] {
    return SlotLocation.all;
  }

  /** The values of all public cases, in declaration order. */
  static publicValues(): SlotLocationValue[] {
    return SlotLocation.all.filter((location) => location.isPublic()).map((location) => location.value);
  }

  /** The case for a value, or undefined (the `tryFrom` of a backed enum). */
  static tryFrom(value: unknown): SlotLocation | undefined {
    return typeof value === 'string' ? SlotLocation.byValue.get(value) : undefined;
  }

  /** The case for a value; throws an error naming the value and listing the valid ones. */
  static from(value: unknown): SlotLocation {
    const location = SlotLocation.tryFrom(value);
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

/** The wire names of the locations; kept as a literal union so payload types are checked by the compiler. */
export type SlotLocationValue =
  | 'login-before-form'
  | 'login-after-form'
  | 'login-sidebar'
  | 'resource-page-actions'
  | 'resource-edit-actions'
  | 'resource-before-form'
  | 'resource-after-form'
  | 'resource-before-relations'
  | 'resource-after-relations'
  | 'dashboard-before-cards'
  | 'dashboard-after-cards'
  | 'global-before-content'
  | 'global-after-content'
  | 'header-banner'
  | 'tenant-switcher';

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
