import { SlotLocation, UnknownSlotLocationError } from './slot-location';

/** The specification's table: value -> enum case; resource-*, dashboard-* and tenant-switcher are protected. */
const SPEC: ReadonlyArray<[value: string, name: string, isPublic: boolean]> = [
  ['login-before-form', 'LOGIN_BEFORE_FORM', true],
  ['login-after-form', 'LOGIN_AFTER_FORM', true],
  ['login-sidebar', 'LOGIN_SIDEBAR', true],
  ['resource-page-actions', 'RESOURCE_PAGE_ACTIONS', false],
  ['resource-edit-actions', 'RESOURCE_EDIT_ACTIONS', false],
  ['resource-before-form', 'RESOURCE_BEFORE_FORM', false],
  ['resource-after-form', 'RESOURCE_AFTER_FORM', false],
  ['resource-before-relations', 'RESOURCE_BEFORE_RELATIONS', false],
  ['resource-after-relations', 'RESOURCE_AFTER_RELATIONS', false],
  ['dashboard-before-cards', 'DASHBOARD_BEFORE_CARDS', false],
  ['dashboard-after-cards', 'DASHBOARD_AFTER_CARDS', false],
  ['global-before-content', 'GLOBAL_BEFORE_CONTENT', true],
  ['global-after-content', 'GLOBAL_AFTER_CONTENT', true],
  ['header-banner', 'HEADER_BANNER', true],
  ['tenant-switcher', 'TENANT_SWITCHER', false],
];

describe('SlotLocation', () => {
  it('has exactly the 15 cases of the specification, in its order', () => {
    expect(SlotLocation.cases().map((location) => [location.value, location.name, location.isPublic()])).toEqual(SPEC);
  });

  it.each(SPEC)('%s is the static case %s (public: %s)', (value, name, isPublic) => {
    const location = (SlotLocation as unknown as Record<string, SlotLocation>)[name];
    expect(location).toBeInstanceOf(SlotLocation);
    expect(location?.value).toBe(value);
    expect(location?.isPublic()).toBe(isPublic);
    expect(SlotLocation.from(value)).toBe(location);
    expect(SlotLocation.tryFrom(value)).toBe(location);
    expect(String(location)).toBe(value);
    expect(JSON.stringify({ at: location })).toBe(`{"at":"${value}"}`);
  });

  it('publicValues() lists the six public locations and no protected one', () => {
    expect(SlotLocation.publicValues()).toEqual([
      'login-before-form',
      'login-after-form',
      'login-sidebar',
      'global-before-content',
      'global-after-content',
      'header-banner',
    ]);
    for (const value of ['tenant-switcher', 'dashboard-before-cards', 'resource-page-actions']) {
      expect(SlotLocation.publicValues()).not.toContain(value);
    }
  });

  it('keeps tenant-switcher, every resource-* and dashboard-* location protected', () => {
    for (const location of SlotLocation.cases()) {
      if (/^(resource|dashboard)-|^tenant-switcher$/.test(location.value)) expect(location.isPublic()).toBe(false);
    }
  });

  it('from() refuses an unknown value, naming it and listing every valid one', () => {
    let caught: unknown;
    try {
      SlotLocation.from('login-footer');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnknownSlotLocationError);
    const message = (caught as Error).message;
    expect(message).toContain('"login-footer"');
    for (const [value] of SPEC) expect(message).toContain(value);
    expect((caught as UnknownSlotLocationError).received).toBe('login-footer');
  });

  it.each([[''], ['LOGIN_BEFORE_FORM'], ['Login-Before-Form'], [' login-before-form'], ['__proto__'], ['toString']])(
    'from(%j) throws',
    (value) => {
      expect(() => SlotLocation.from(value)).toThrow(UnknownSlotLocationError);
      expect(SlotLocation.tryFrom(value)).toBeUndefined();
    },
  );

  it('from() of a non-string throws a readable message', () => {
    expect(() => SlotLocation.from(42)).toThrow(/Unknown slot location 42\. Valid locations: login-before-form/);
    expect(() => SlotLocation.from(undefined)).toThrow(/Unknown slot location undefined/);
    expect(() => SlotLocation.from(SlotLocation.HEADER_BANNER)).toThrow(UnknownSlotLocationError);
  });

  it('cases are frozen and the list cannot be changed', () => {
    const cases = SlotLocation.cases();
    expect(Object.isFrozen(cases)).toBe(true);
    expect(Object.isFrozen(SlotLocation.LOGIN_SIDEBAR)).toBe(true);
    expect(() => (cases as SlotLocation[]).push(SlotLocation.LOGIN_SIDEBAR)).toThrow(TypeError);
  });

  it('publicValues() returns a fresh array each time', () => {
    const values = SlotLocation.publicValues();
    values.pop();
    expect(SlotLocation.publicValues()).toHaveLength(6);
  });
});
