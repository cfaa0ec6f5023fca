import { describeRule, isPlainObject, type JsonValue, type ShownVisibilityRule } from '../../../shared';
import { ruleCountsHiddenTenants } from '../../../shared/placements-hidden-tenants';

/**
 * Why a rule is shown in words, not as JSON to edit: the server counts the tenants the reader does not belong to
 * (server/placements/shown-placements.ts), so only someone with placements:edit in every tenant, whose page is not
 * read only, reads it whole and may change it.
 */
export const COUNTED_RULE_NOTE =
  'Tenants you do not belong to are counted here, not named: only someone with the placements:edit permission in ' +
  'every tenant reads this rule whole and may change it.';

/**
 * A rule of the draft in words when it counts tenants hidden from the reader (`tenant acme or 2 tenants hidden from
 * you`), as the Locations page and the inspector say rules (describeRule); null for a rule written whole, which the
 * editor shows as JSON to edit. A draft's rule that is no rule yet (saved with its problem) is shown as its JSON, its
 * tenants counted all the same.
 */
export function countedRuleWords(rule: JsonValue | undefined): string | null {
  if (rule === undefined || !ruleCountsHiddenTenants(rule)) return null;
  return isShownRule(rule) ? describeRule(rule) : JSON.stringify(rule);
}

/** Whether `value` has the shape describeRule reads: one rule key (with `otherTenants` beside `tenants`), nested. */
function isShownRule(value: unknown): value is ShownVisibilityRule {
  if (!isPlainObject(value)) return false;
  const names = (operand: unknown) => Array.isArray(operand) && operand.every((name) => typeof name === 'string');
  const keys = Object.keys(value);
  if ('tenants' in value) {
    const counted = (key: string) => key === 'otherTenants' && Number.isSafeInteger(value.otherTenants);
    return names(value.tenants) && keys.every((key) => key === 'tenants' || counted(key));
  }
  const [key] = keys;
  if (keys.length !== 1 || key === undefined) return false;
  const operand = value[key];
  switch (key) {
    case 'roles':
    case 'permissions':
    case 'flags':
      return names(operand);
    case '$all':
    case '$any':
      return Array.isArray(operand) && operand.length > 0 && operand.every(isShownRule);
    case '$not':
      return isShownRule(operand);
    default:
      return false;
  }
}
