import type { JsonValue, PlacementProblem, PlacementsDocument } from '../../../shared';
import { slotsAt } from './placements-draft';
import { treeOfRule, type ConditionKey, type RuleNode } from './placements-rule-tree';

/** What a condition naming nothing yet lacks, and how the builder gives one (a box; for tenants and flags, typed too). */
const WHAT_TO_GIVE: Readonly<Record<ConditionKey, string>> = {
  roles: 'no role yet (tick one)',
  permissions: 'no permission yet (tick one)',
  tenants: 'no tenant yet (tick or type one)',
  flags: 'no flag yet (tick or type one)',
};

/**
 * What is left to fill in of a rule being built, as the builder numbers its parts (`condition 1 names no role yet
 * (tick one)`, `group 2 holds no condition yet (add one)`), or null when no part is unfinished. Such a rule is no rule
 * to the server (a rule's lists are not empty: shared/slot-placement.ts), which reads the slot as none at all, so the
 * preview leaves it out: this says why in the builder's terms, as a step still to take rather than a refusal.
 */
export function unfinishedRulePart(rule: JsonValue | undefined): string | null {
  const { tree } = treeOfRule(rule);
  return tree === null || tree === undefined ? null : unfinishedIn(tree, tree.kind === 'group' ? '' : '1');
}

function unfinishedIn(node: RuleNode, path: string): string | null {
  if (node.kind === 'condition') {
    return node.names.length === 0 ? `condition ${path} names ${WHAT_TO_GIVE[node.key]}` : null;
  }
  if (node.parts.length === 0) return `${path === '' ? 'the rule' : `group ${path}`} holds no condition yet (add one)`;
  for (const [index, part] of node.parts.entries()) {
    const found = unfinishedIn(part, path === '' ? String(index + 1) : `${path}.${index + 1}`);
    if (found !== null) return found;
  }
  return null;
}

/** A slot of the document that a preview left out because its rule is still being built. */
export interface UnfinishedRuleSlot {
  problem: PlacementProblem;
  location: string;
  /** `WelcomeCard (team_marketing) #1 is previewed once its Shown when rule is complete: condition 1 names …`. */
  words: string;
}

/**
 * The problems of a preview (the parts of `document` it could not read) that are a slot's rule still being built,
 * each said in the builder's terms with the slot named as its card is (`#1`: its number among its location's cards).
 */
export function unfinishedRuleSlots(
  document: PlacementsDocument,
  problems: readonly PlacementProblem[],
): UnfinishedRuleSlot[] {
  return problems.flatMap((problem) => {
    const { remote, location, index } = problem;
    // The rule's own refusal only ("visibleWhen…" in its message): another part of the slot may be refused first.
    if (remote === null || location === null || index === null || !problem.message.includes('"visibleWhen')) return [];
    const cards = slotsAt(document, location);
    const place = cards.findIndex((at) => at.remote === remote && at.index === index);
    const slot = cards[place]?.slot;
    const unfinished = slot === undefined ? null : unfinishedRulePart(slot.visibleWhen);
    if (slot === undefined || unfinished === null) return [];
    const card = `${String(slot.component)} (${remote}) #${place + 1}`;
    return [{ problem, location, words: `${card} is previewed once its Shown when rule is complete: ${unfinished}.` }];
  });
}
