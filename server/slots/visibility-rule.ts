import type { VisibilityRule } from '../../shared';

/**
 * What a rule is evaluated against: the signed-in user's roles and permissions in the tenant they work in now, that
 * tenant, and the feature flags on for it. A caller without a session (`GET /slots`) has no roles, no permissions,
 * no tenant, and the global flags.
 */
export interface Viewer {
  roles: readonly string[];
  permissions: readonly string[];
  tenant: string | null;
  flags: ReadonlySet<string>;
}

/** Whether the viewer passes the rule (shared/slot-placement.ts): linear in the rule's size. */
export function ruleHolds(rule: VisibilityRule, viewer: Viewer): boolean {
  if ('roles' in rule) return rule.roles.some((role) => viewer.roles.includes(role));
  if ('permissions' in rule) return rule.permissions.some((permission) => viewer.permissions.includes(permission));
  if ('tenants' in rule) return viewer.tenant !== null && rule.tenants.includes(viewer.tenant);
  if ('flags' in rule) return rule.flags.some((flag) => viewer.flags.has(flag));
  if ('$all' in rule) return rule.$all.every((part) => ruleHolds(part, viewer));
  if ('$any' in rule) return rule.$any.some((part) => ruleHolds(part, viewer));
  return !ruleHolds(rule.$not, viewer);
}
