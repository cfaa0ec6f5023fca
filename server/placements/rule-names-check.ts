import { namesInRule, unknownNamesMessage, type PlacementProblem } from '../../shared';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import type { TenantStore } from '../tenants/tenant-store';
import type { ParsedPlacements } from './placements-document';

/**
 * The tenants and feature flags there are now, both in the database: what the `tenants` and `flags` of a document's
 * rules are checked against. (Roles and permissions are fixed in code and checked as the document is read.)
 */
export interface KnownRuleNames {
  tenants: readonly string[];
  /** Every flag set at least once, on or off (FeatureFlagStore.names). */
  flags: readonly string[];
}

/** The kind of a placement problem about a rule naming a tenant or flag that does not exist. */
export const UNKNOWN_RULE_NAME = 'unknown-rule-name';

export async function readKnownRuleNames(tenants: TenantStore, flags: FeatureFlagStore): Promise<KnownRuleNames> {
  const [tenantList, flagNames] = await Promise.all([tenants.list(), flags.names()]);
  return { tenants: tenantList.map((tenant) => tenant.id), flags: flagNames };
}

/**
 * A blocking problem for each list of a document's rules naming a tenant or flag that does not exist: such a rule
 * never holds for it, so a typo (`acmee`) would hide the slot from everyone, silently. Each names its slot, the list
 * in the rule, the unknown names and the known ones.
 */
export function unknownRuleNameProblems(parsed: ParsedPlacements, known: KnownRuleNames): PlacementProblem[] {
  return parsed.slots.flatMap(({ remote, location, index, slot }) => {
    const rule = slot.placement.visibleWhen;
    if (rule === undefined) return [];
    return (['tenants', 'flags'] as const).flatMap((key) =>
      namesInRule(rule, key).flatMap(({ path, names }): PlacementProblem[] => {
        const unknown = names.filter((name) => !known[key].includes(name));
        if (unknown.length === 0) return [];
        return [
          {
            remote,
            location: location.value,
            index,
            component: slot.component,
            kind: UNKNOWN_RULE_NAME,
            path: null,
            message: `"${path}" ${unknownNamesMessage(key, unknown, known[key])}`,
            blocking: true,
          },
        ];
      }),
    );
  });
}
