import type { Request } from 'express';
import { PLACEMENTS_EDIT, type ShownVisibilityRule, type StaffPermission, type VisibilityRule } from '../../shared';
import { tenantWithout } from '../auth/require-permission';
import type { TenantContext } from '../auth/current-tenant';
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
 * Which tenants' ids a user may read in rules: every one (null), or those the function accepts.
 */
export type ReadableTenants = ((tenant: string) => boolean) | null;

/**
 * The tenants whose ids the signed-in user of `req` may read in rules: every one (null) for someone who edits
 * placements in every tenant (they write these rules and read every tenant's in the placements editor), otherwise
 * the tenants they belong to. The placements editor asks this too, for what it shows a partial operator, and the
 * releases API with its own permission, for the tenants of a canary.
 */
export async function readableTenantsFor(
  req: Request,
  context: TenantContext,
  tenants: TenantStore,
  permission: StaffPermission = PLACEMENTS_EDIT,
): Promise<ReadableTenants> {
  const user = req.user;
  if (user && (await tenantWithout(permission, user, tenants)) === null) return null;
  return memberTenantsOf(context);
}

/** The tenants of `context`'s user, as readable ids: someone who may not read every tenant's reads these. */
export function memberTenantsOf(context: TenantContext): (tenant: string) => boolean {
  const member = new Set(context.tenants.map((tenant) => tenant.id));
  return (tenant) => member.has(tenant);
}

/** How rules are shown to the signed-in user of `req`: whole, or with only the ids readableTenantsFor allows. */
export async function ruleShowerFor(req: Request, context: TenantContext, tenants: TenantStore): Promise<ShowRule> {
  return ruleShowerOf(await readableTenantsFor(req, context, tenants));
}

/** How rules are shown to someone who may read `readable`'s tenant ids. */
export function ruleShowerOf(readable: ReadableTenants): ShowRule {
  return readable === null ? (rule) => rule : (rule) => ruleShownTo(rule, readable);
}
