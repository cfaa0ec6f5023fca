/**
 * Who sees a slot, as data: `{ "roles": [...] }` (the user has one of them in the current tenant: staff-roles.ts),
 * `{ "permissions": [...] }` (the user has one of them there: staff-permissions.ts), `{ "tenants": [...] }` (the
 * current tenant is one of them), `{ "flags": [...] }` (one of these feature flags is on, for the tenant or
 * globally), and `$all`, `$any`, `$not` around them. Every name must name something that exists (rule-names.ts):
 * roles and permissions are checked by slot-placement.ts, tenants and flags against the database by the placements
 * check. The type sits alone so that slot-placement.ts (the check) and rule-names.ts (what a check says of a name)
 * both import it, and slot-placement.ts imports rule-names.ts one way.
 */
export type VisibilityRule =
  | { readonly roles: readonly string[] }
  | { readonly permissions: readonly string[] }
  | { readonly tenants: readonly string[] }
  | { readonly flags: readonly string[] }
  | { readonly $all: readonly VisibilityRule[] }
  | { readonly $any: readonly VisibilityRule[] }
  | { readonly $not: VisibilityRule };
