import { isPlainObject, type JsonValue } from '../../../shared';
import { ruleReading } from './placements-rule-reading';

/** What a condition of the rule builder tests: the rule language's four name lists (shared/visibility-rule.ts). */
export type ConditionKey = 'roles' | 'permissions' | 'tenants' | 'flags';

/** `{ "roles": [...] }`: the viewer has one of the names; with `not`, none of them (`{ "$not": ... }` around it). */
export interface RuleCondition {
  kind: 'condition';
  key: ConditionKey;
  names: string[];
  not: boolean;
}

/** `{ "$all": [...] }` or `{ "$any": [...] }` of nested parts; with `not`, `{ "$not": ... }` around it. */
export interface RuleGroup {
  kind: 'group';
  combine: '$all' | '$any';
  not: boolean;
  parts: RuleNode[];
}

export type RuleNode = RuleCondition | RuleGroup;

/** A rule as the builder shows it (null: no rule, always shown), or why the builder cannot show it (JSON only). */
export type TreeReading = { tree: RuleNode | null; unshown?: undefined } | { unshown: string; tree?: undefined };

const CONDITION_KEYS: readonly ConditionKey[] = ['roles', 'permissions', 'tenants', 'flags'];

/** Thrown while reading a rule of a shape the builder has no control for. */
class Unshown extends Error {}

/**
 * The builder's tree of a rule, read exactly: written back (ruleOfTree) it gives the same JSON, so switching
 * between the builder and the JSON never changes the rule. A condition or group still being built (no name
 * chosen yet, a group without parts) is shown, as the draft takes it (the reading under the rule says what the
 * server will refuse). What the builder has no control for stays JSON, with why: a rule of another shape (the server's
 * check of it says what is wrong), and a not of a not (one "not" per condition or group).
 */
export function treeOfRule(rule: JsonValue | undefined): TreeReading {
  if (rule === undefined) return { tree: null };
  try {
    return { tree: nodeOf(rule, false) };
  } catch (error) {
    if (!(error instanceof Unshown)) throw error;
    return { unshown: error.message || (ruleReading(rule).problem ?? 'The builder cannot show this rule.') };
  }
}

function nodeOf(value: JsonValue, negated: boolean): RuleNode {
  if (!isPlainObject(value) || Object.keys(value).length !== 1) throw new Unshown();
  const [key] = Object.keys(value) as [string];
  const operand = value[key] as JsonValue;
  if (key === '$not') {
    if (negated) {
      throw new Unshown(
        'The builder shows one "not" per condition or group, and this rule has a not of a not: write it without both.',
      );
    }
    return nodeOf(operand, true);
  }
  if ((CONDITION_KEYS as readonly string[]).includes(key)) {
    if (!Array.isArray(operand) || !operand.every((name) => typeof name === 'string')) throw new Unshown();
    return { kind: 'condition', key: key as ConditionKey, names: [...(operand as string[])], not: negated };
  }
  if (key === '$all' || key === '$any') {
    if (!Array.isArray(operand)) throw new Unshown();
    return { kind: 'group', combine: key, not: negated, parts: operand.map((part) => nodeOf(part, false)) };
  }
  throw new Unshown();
}

/** The rule a tree stands for (undefined: none, always shown). */
export function ruleOfTree(tree: RuleNode | null): JsonValue | undefined {
  if (tree === null) return undefined;
  const rule: JsonValue =
    tree.kind === 'condition' ? { [tree.key]: [...tree.names] } : { [tree.combine]: tree.parts.map(ruleOfPart) };
  return tree.not ? { $not: rule } : rule;
}

function ruleOfPart(part: RuleNode): JsonValue {
  return ruleOfTree(part) as JsonValue;
}

/** A new condition, as the builder adds one: a role, none chosen yet. */
export function newCondition(): RuleCondition {
  return { kind: 'condition', key: 'roles', names: [], not: false };
}

/** A new group, as the builder adds one: "all of", with one new condition to fill in. */
export function newGroup(): RuleGroup {
  return { kind: 'group', combine: '$all', not: false, parts: [newCondition()] };
}
