import { UNKNOWN_RULE_NAME, type PlacementProblem } from '../../../shared';

/** A problem of a slot's "Shown when" rule as its field says it: at which condition, in the builder's words. */
export interface RuleProblemPlace {
  /** The condition's number as the builder shows it (`1`, `2.1`); null when the message names no list of the rule. */
  condition: string | null;
  words: string;
  /**
   * Whether it stops a publish: a name in a rule being written. A rule in force unchanged since a publish, naming a
   * tenant removed since, is a warning (its box is not marked invalid; other changes publish).
   */
  blocking: boolean;
}

/**
 * Where a problem the draft check found in a slot's rule is (null for a problem that is not the rule's). The server
 * names the list by its path (`"visibleWhen.$all[1].$any[0].tenants" names the unknown tenant "acmee"; ...`); the
 * builder numbers the same condition `2.1` (a `$not` is a condition's or group's "Not", no step of its own), so the
 * field says `Condition 2.1 names the unknown tenant "acmee"; ...` and marks that condition's box.
 */
export function ruleProblemPlace(
  problem: Pick<PlacementProblem, 'kind' | 'message' | 'blocking'>,
): RuleProblemPlace | null {
  if (problem.kind !== UNKNOWN_RULE_NAME) return null;
  const { blocking } = problem;
  const match = /^"visibleWhen((?:\.\$(?:all|any)\[\d+\]|\.\$not)*)\.\w+" ([\s\S]*)$/.exec(problem.message);
  if (match === null) return { condition: null, words: problem.message, blocking };
  const steps = [...match[1]!.matchAll(/\[(\d+)\]/g)].map((step) => Number(step[1]) + 1);
  // A rule of one condition: the builder shows it alone, as condition 1, and "the rule" is what the operator sees.
  if (steps.length === 0) return { condition: '1', words: `The rule ${match[2]!}`, blocking };
  const condition = steps.join('.');
  return { condition, words: `Condition ${condition} ${match[2]!}`, blocking };
}
