import { checkVisibilityRule, describeRule, type JsonValue } from '../../../shared';

/** What the "Shown when" box says under it of a rule that is JSON: the rule in words, or what is wrong with it. */
export type RuleReading = { words: string; problem?: undefined } | { problem: string; words?: undefined };

/**
 * A rule read back in words as it is typed (`Shown to: role operator and not tenant acme.`), so an operator who
 * writes the JSON sees what it means before saving; a rule of another shape gets the check the server makes of it
 * (all that is wrong with it), as a warning: the draft takes it, and the server refuses a publish with it.
 */
export function ruleReading(rule: JsonValue): RuleReading {
  try {
    return { words: `Shown to: ${describeRule(checkVisibilityRule(rule, 'Shown when'))}.` };
  } catch (error) {
    return { problem: `${(error as Error).message} A publish is refused with it.` };
  }
}
