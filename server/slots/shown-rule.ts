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
 * Whether `rule` holds for no one in any of `tenants`, whatever their roles, permissions and flags: its slot is then
 * shown only in tenants the reader does not belong to, and its props are those tenants' data. Decided clause by clause
 * in each tenant (its `tenants` clauses are true or false there; any other clause may go either way), so a rule false
 * only by contradiction (`$all` of a role and its `$not`) is not found: its props are shown, as before.
 */
export function holdsInNoneOf(rule: VisibilityRule, tenants: readonly string[]): boolean {
  return tenants.every((tenant) => truthIn(rule, tenant) === false);
}

/** true or false when the tenant decides the rule alone, undefined when who the viewer is decides it. */
function truthIn(rule: VisibilityRule, tenant: string): boolean | undefined {
  if ('tenants' in rule) return rule.tenants.includes(tenant);
  if ('$not' in rule) {
    const part = truthIn(rule.$not, tenant);
    return part === undefined ? undefined : !part;
  }
  // One false part decides $all, one true part $any; all parts the other way decide it too.
  if ('$all' in rule)
    return decided(
      rule.$all.map((part) => truthIn(part, tenant)),
      false,
    );
  if ('$any' in rule)
    return decided(
      rule.$any.map((part) => truthIn(part, tenant)),
      true,
    );
  return undefined;
}

function decided(parts: Array<boolean | undefined>, deciding: boolean): boolean | undefined {
  if (parts.includes(deciding)) return deciding;
  return parts.every((part) => part === !deciding) ? !deciding : undefined;
}

/** The tenants someone belongs to: whether a tenant is one of them, and their ids. */
export interface MemberTenants {
  (tenant: string): boolean;
  readonly ids: readonly string[];
}

/**
 * Which tenants' ids a user may read in rules: every one (null), or those they belong to.
 */
export type ReadableTenants = MemberTenants | null;

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
export function memberTenantsOf(context: TenantContext): MemberTenants {
  return memberTenants(context.tenants.map((tenant) => tenant.id));
}

export function memberTenants(ids: readonly string[]): MemberTenants {
  const member = new Set(ids);
  return Object.assign((tenant: string) => member.has(tenant), { ids: [...member] });
}

/** How rules are shown to the signed-in user of `req`: whole, or with only the ids readableTenantsFor allows. */
export async function ruleShowerFor(req: Request, context: TenantContext, tenants: TenantStore): Promise<ShowRule> {
  return ruleShowerOf(await readableTenantsFor(req, context, tenants));
}

/** How rules are shown to someone who may read `readable`'s tenant ids. */
export function ruleShowerOf(readable: ReadableTenants): ShowRule {
  return readable === null ? (rule) => rule : (rule) => ruleShownTo(rule, readable);
}
