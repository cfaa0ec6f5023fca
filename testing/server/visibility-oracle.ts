import type { VisibilityRule } from '../../shared';
import type { Viewer } from '../../server/slots/visibility-rule';

/**
 * Whether a `visibleWhen` rule holds for a viewer, written from the table in docs/reference/placements.md
 * (#visibility-rules), not from the product's `ruleHolds`: a test whose expectation came from the code under test
 * could never disagree with it (issue 53). Deliberately plain: a rule object has exactly one key; a list rule holds
 * when the viewer has one of the names listed; `$all` when none of its rules fails, `$any` when at least one holds,
 * `$not` when its rule does not. The viewer's roles and permissions are those in force in their tenant now.
 */
export function documentedRuleHolds(rule: VisibilityRule, viewer: Viewer): boolean {
  const entries = Object.entries(rule) as [string, unknown][];
  if (entries.length !== 1) throw new Error(`a rule has exactly one key: ${JSON.stringify(rule)}`);
  const [key, value] = entries[0]!;
  const has = (owned: Iterable<string>) => {
    const set = new Set(owned);
    return (value as string[]).filter((name) => set.has(name)).length > 0;
  };
  const holding = () => (value as VisibilityRule[]).filter((part) => documentedRuleHolds(part, viewer)).length;
  switch (key) {
    case 'roles':
      return has(viewer.roles);
    case 'permissions':
      return has(viewer.permissions);
    case 'tenants':
      return has(viewer.tenant === null ? [] : [viewer.tenant]);
    case 'flags':
      return has(viewer.flags);
    case '$all':
      return holding() === (value as VisibilityRule[]).length;
    case '$any':
      return holding() >= 1;
    case '$not':
      return !documentedRuleHolds(value as VisibilityRule, viewer);
    default:
      throw new Error(`not a rule key: ${key}`);
  }
}
