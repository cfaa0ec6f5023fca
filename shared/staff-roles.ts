/**
 * The roles of staff accounts. An account may hold a role of its own (`npm run user:add -- <name> --role
 * viewer|editor|operator|none`) and one per tenant membership (`--tenant <id> --role <role>`), which wins while that
 * tenant is current; an account with neither is an editor (installs made before roles existed keep every right
 * they had). What each role allows is said once, as permissions: staff-permissions.ts.
 * - `viewer`: reads records, never creates, saves, deletes, restores or bulk-changes them;
 * - `editor`: reads and changes records, where the resource allows it;
 * - `operator`: an editor who also manages the releases of remotes and the placements.
 * No account can hold another role, so `visibleWhen` rules may name these only: a rule naming another would hold for
 * nobody, and is refused (slot-placement.ts). How rules see an account's roles: `rolesForRules`.
 */
export const VIEWER_ROLE = 'viewer';
export const EDITOR_ROLE = 'editor';
/** The role that may see and change releases and placements (`npm run user:add -- <name> --role operator`). */
export const OPERATOR_ROLE = 'operator';

/** The roles an account can hold, least rights first. */
export const STAFF_ROLES = [VIEWER_ROLE, EDITOR_ROLE, OPERATOR_ROLE] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}
