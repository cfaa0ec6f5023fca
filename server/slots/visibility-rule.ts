import type { VisibilityRule } from '../../shared';

/** What a rule is evaluated against: the signed-in user's roles and the tenant they work in now. */
export interface Viewer {
  roles: readonly string[];
  tenant: string;
}

/** Whether the viewer passes the rule (shared/slot-placement.ts): linear in the rule's size. */
export function ruleHolds(rule: VisibilityRule, viewer: Viewer): boolean {
  if ('roles' in rule) return rule.roles.some((role) => viewer.roles.includes(role));
  if ('tenants' in rule) return rule.tenants.includes(viewer.tenant);
  if ('$all' in rule) return rule.$all.every((part) => ruleHolds(part, viewer));
  if ('$any' in rule) return rule.$any.some((part) => ruleHolds(part, viewer));
  return !ruleHolds(rule.$not, viewer);
}
