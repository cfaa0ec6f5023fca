import type { Request } from 'express';
import { PLACEMENTS_EDIT, type ShownVisibilityRule, type VisibilityRule } from '../../shared';
import { tenantWithout } from '../auth/require-permission';
import type { TenantContext } from '../tenants/current-tenant';
import type { TenantStore } from '../tenants/tenant-store';

/** How a rule is shown to the user asking: see ruleShownTo. */
export type ShowRule = (rule: VisibilityRule) => ShownVisibilityRule;

/**
 * The rule with the ids of the tenants `mayRead` refuses taken out of its `tenants` clauses and counted instead
 * (`otherTenants`): the inspector and the location catalogue are for every signed-in member of any tenant, and a rule
 * aimed at other tenants must not tell them which tenants exist. What the rule does is unchanged: it is evaluated on
 * the server, whole.
 */
export function ruleShownTo(rule: VisibilityRule, mayRead: (tenant: string) => boolean): ShownVisibilityRule {
  if ('tenants' in rule) {
    const readable = rule.tenants.filter(mayRead);
    const others = rule.tenants.length - readable.length;
    return others === 0 ? rule : { tenants: readable, otherTenants: others };
  }
  if ('$all' in rule) return { $all: rule.$all.map((part) => ruleShownTo(part, mayRead)) };
  if ('$any' in rule) return { $any: rule.$any.map((part) => ruleShownTo(part, mayRead)) };
  if ('$not' in rule) return { $not: ruleShownTo(rule.$not, mayRead) };
  return rule;
}

/**
 * How rules are shown to the signed-in user of `req`: whole to someone who edits placements in every tenant (they
 * write these rules and read every tenant's in the placements editor), otherwise with only the ids of the tenants
 * they belong to.
 */
export async function ruleShowerFor(req: Request, context: TenantContext, tenants: TenantStore): Promise<ShowRule> {
  const user = req.user;
  if (user && (await tenantWithout(PLACEMENTS_EDIT, user, tenants)) === null) return (rule) => rule;
  const member = new Set(context.tenants.map((tenant) => tenant.id));
  return (rule) => ruleShownTo(rule, (tenant) => member.has(tenant));
}
