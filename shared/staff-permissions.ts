import { EDITOR_ROLE, isStaffRole, type StaffRole } from './staff-roles';

/**
 * What staff may do, as permissions: the one place that says what each role allows. The server's routes check a
 * permission (never a role's name), the shell asks the same question to say why instead of offering an action the
 * server would refuse, and `visibleWhen` rules may name them (`{ "permissions": ["releases:manage"] }`).
 */
/** Read the resources and their records (every signed-in member of the tenant). */
export const RECORDS_READ = 'records:read';
/** Create, save, delete, restore and bulk-change records, where the resource allows it. */
export const RECORDS_WRITE = 'records:write';
/** See the releases of remotes, activate and roll them back, run a canary, preview one in one's own session. */
export const RELEASES_MANAGE = 'releases:manage';
/** The placements editor: edit the draft, publish, roll back, import and export placements. */
export const PLACEMENTS_EDIT = 'placements:edit';

/** Every permission there is, in the order the docs list them. Anything else is refused where it is named. */
export const STAFF_PERMISSIONS = [RECORDS_READ, RECORDS_WRITE, RELEASES_MANAGE, PLACEMENTS_EDIT] as const;
export type StaffPermission = (typeof STAFF_PERMISSIONS)[number];

/**
 * What each role grants. An account holds one role per tenant (its membership's, else its own, else none: an
 * editor); permissions granted to the account itself come on top, in every tenant.
 */
export const ROLE_PERMISSIONS: Readonly<Record<StaffRole, readonly StaffPermission[]>> = Object.freeze({
  viewer: Object.freeze<StaffPermission[]>([RECORDS_READ]),
  editor: Object.freeze<StaffPermission[]>([RECORDS_READ, RECORDS_WRITE]),
  operator: Object.freeze<StaffPermission[]>([RECORDS_READ, RECORDS_WRITE, RELEASES_MANAGE, PLACEMENTS_EDIT]),
});

export function isStaffPermission(value: unknown): value is StaffPermission {
  return typeof value === 'string' && (STAFF_PERMISSIONS as readonly string[]).includes(value);
}

/**
 * The permissions of someone holding `roles`, plus those `granted` to their account. Roles other than
 * viewer/editor/operator grant nothing; holding none of those three is an editor's (accounts made before roles
 * existed kept every right they had). In STAFF_PERMISSIONS order, without repeats.
 */
export function permissionsOf(
  roles: readonly string[] | undefined,
  granted: readonly string[] = [],
): StaffPermission[] {
  const known = (roles ?? []).filter(isStaffRole);
  const rolesInForce: readonly StaffRole[] = known.length > 0 ? known : [EDITOR_ROLE];
  const held = new Set<string>(granted);
  for (const role of rolesInForce) for (const each of ROLE_PERMISSIONS[role]) held.add(each);
  return STAFF_PERMISSIONS.filter((permission) => held.has(permission));
}

/** What a permission check reads of a signed-in user (wire.ts CurrentUser, as `GET /me` answers it). */
export interface PermissionHolder {
  roles?: readonly string[];
  permissions?: readonly string[];
}

/**
 * Whether the signed-in user may do what `permission` allows in their current tenant: the permissions of their
 * `GET /me`, or those of its roles when an answer carries none (a remote's tests, an emulated host).
 */
export function userMay(user: PermissionHolder | null | undefined, permission: StaffPermission): boolean {
  if (!user) return false;
  return (user.permissions ?? permissionsOf(user.roles)).includes(permission);
}

/**
 * The roles a `visibleWhen` rule sees: the ones held, plus `editor` wherever the holder may change records (no role,
 * an operator, a viewer granted records:write). So "show this to the editors of tenant X" reaches everyone who may
 * edit records there, not only the accounts given the word; `{ "$not": { "roles": ["operator"] } }` still tells
 * operators apart.
 */
export function rolesForRules(roles: readonly string[], permissions: readonly string[]): readonly string[] {
  return permissions.includes(RECORDS_WRITE) && !roles.includes(EDITOR_ROLE) ? [...roles, EDITOR_ROLE] : roles;
}

/** Why a viewer is refused a change of records (no records:write): the API's 403, and what the pages say instead. */
export const VIEWER_CANNOT_CHANGE_RECORDS =
  'Your account has the viewer role in this tenant: it can read records here but not create, save or delete them. ' +
  'Ask an operator for the editor role.';

/** Why a request was refused a permission: the API's 403 message, and what the pages say instead of the action. */
export const PERMISSION_REFUSED: Readonly<Record<StaffPermission, string>> = Object.freeze({
  [RECORDS_READ]: 'Your account may not read records in this tenant.',
  [RECORDS_WRITE]: VIEWER_CANNOT_CHANGE_RECORDS,
  [RELEASES_MANAGE]: 'Only operators may do this: the releases of remotes need the releases:manage permission.',
  [PLACEMENTS_EDIT]: 'Only operators may do this: placements need the placements:edit permission.',
});
