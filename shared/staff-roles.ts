/**
 * The roles of staff accounts, and what each allows in the shell. One role per account (`npm run user:add --
 * <name> --role viewer|editor|operator|none`), the same in every tenant the account belongs to:
 * - `viewer`: reads records, never creates, saves, deletes, restores or bulk-changes them;
 * - `editor`: reads and changes records, where the resource allows it;
 * - `operator`: an editor who also sees and changes the releases of remotes.
 * An account without a role is an editor: installs made before roles existed keep every right they had.
 * `visibleWhen` rules may name any role, these or others, and see an account's rights (`rolesForRules`).
 */
export const VIEWER_ROLE = 'viewer';
export const EDITOR_ROLE = 'editor';
/** The role that may see and change releases (`npm run user:add -- <name> --role operator`). */
export const OPERATOR_ROLE = 'operator';

/** The roles an account can hold, least rights first. */
export const STAFF_ROLES = [VIEWER_ROLE, EDITOR_ROLE, OPERATOR_ROLE] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Whether an account with `roles` may create, save, delete, restore and bulk-change records: all but viewers. */
export function mayChangeRecords(roles: readonly string[] | undefined): boolean {
  const held = roles ?? [];
  return !held.includes(VIEWER_ROLE) || held.includes(EDITOR_ROLE) || held.includes(OPERATOR_ROLE);
}

/**
 * The roles a `visibleWhen` rule sees for an account: its own, plus `editor` wherever the account has an editor's
 * rights (`mayChangeRecords`: no role, an operator, any account but a viewer). So "show this to the editors of tenant
 * X" reaches everyone who may edit records there, not only the accounts given the word; `{ "$not": { "roles":
 * ["operator"] } }` still tells operators apart.
 */
export function rolesForRules(roles: readonly string[] | undefined): readonly string[] {
  const held = roles ?? [];
  return mayChangeRecords(held) && !held.includes(EDITOR_ROLE) ? [...held, EDITOR_ROLE] : held;
}

/** Why a viewer is refused a change of records: the API's 403 message, and what the pages say instead of the action. */
export const VIEWER_CANNOT_CHANGE_RECORDS =
  'Your account has the viewer role: it can read records but not create, save or delete them. ' +
  'Ask an operator for the editor role.';
