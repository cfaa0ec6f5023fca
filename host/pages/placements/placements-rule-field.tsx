import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { JsonValue } from '../../../shared';
import { UNREAD_INPUT_ATTRIBUTE } from './placement-order-fields';
import { RuleBuilder } from './placements-rule-builder';
import { ruleReading } from './placements-rule-reading';
import { unfinishedRulePart } from './placements-unfinished-rule';
import { treeOfRule } from './placements-rule-tree';
import type { RuleProblemPlace } from './rule-problem-place';

export interface RuleFieldProps {
  /** The card's id: the field's controls take theirs from it. */
  id: string;
  /** The card's name, as its other controls' labels give it (CardName). */
  name: ReactNode;
  /** The same as text (`Banner (team_marketing) #2 at header-banner`), for the toggle's name. */
  label: string;
  /** The slot's rule in the draft; undefined: none (always shown). */
  rule: JsonValue | undefined;
  /** Puts a rule (undefined: none) into the draft. */
  setRule(rule: JsonValue | undefined): void;
  /** Counts the field as unsaved without changing the draft (JSON typed that is not JSON yet). */
  touch(): void;
  /**
   * What the draft check found wrong with this rule (a tenant or flag that does not exist), while the rule is the
   * one it checked: said under the rule in place of its reading, marking the condition it is at.
   */
  problems?: readonly RuleProblemPlace[];
}

/** The id of a card's rule field (the fieldset): what its problems in the card's list link to. */
export function ruleFieldId(cardId: string): string {
  return `${cardId}-rule-field`;
}

const NO_PROBLEMS: readonly RuleProblemPlace[] = [];

/**
 * How long typing in the JSON must pause before the rule's words follow it. Typed key by key, the text is JSON, then
 * not, then JSON again: words that followed each key would be a polite live region's "Not JSON yet", "Shown to: …",
 * "Not JSON yet" said over one another as fast as the operator types. Said once typing pauses instead, whatever the
 * text then is (a pause on text that is not JSON is worth hearing too); a box ticked or a test chosen is said at once.
 */
export const RULE_WORDS_SETTLE_MS = 700;

/**
 * A slot's "Shown when" rule: built from a form (conditions on roles, tenants, flags and permissions, combined with
 * "all of" or "any of", negated with "not", groups nested), or written as JSON by whoever prefers it. Either way the
 * rule is read back in words under it, in a live region: said again at each edit. Both show the one rule the draft
 * holds, so switching keeps it; a rule the builder cannot show, or text that is not JSON yet, stays in JSON with a
 * sentence saying why, nothing lost.
 */
export function RuleField({ id, name, label, rule, setRule, touch, problems = NO_PROBLEMS }: RuleFieldProps) {
  const current = rule === undefined ? '' : JSON.stringify(rule);
  const reading = treeOfRule(rule);
  const [text, setText] = useState(current);
  // The rule the text stands for: when the slot's rule changes otherwise (the builder, a slot above removed, a
  // rollback), the text follows it; while the operator types, it stays as typed.
  const [textFor, setTextFor] = useState(current);
  const [textError, setTextError] = useState<string | null>(null);
  if (textFor !== current) {
    setText(current);
    setTextFor(current);
    setTextError(null);
  }
  const [asJson, setAsJson] = useState(reading.unshown !== undefined);
  /** Why a switch to the builder was refused, said until the text changes. */
  const [stays, setStays] = useState<string | null>(null);
  const json = asJson || reading.unshown !== undefined || textError !== null;
  const unfinished = rule === undefined ? null : unfinishedRulePart(rule);
  // A rule being built (a condition ticking nothing yet) is said as the step left, in the builder's terms, not as
  // the server's refusal of an empty list.
  const words =
    rule === undefined
      ? null
      : unfinished !== null
        ? {
            problem: `Not complete: ${unfinished}. Until it is, the preview leaves this slot out and a publish is refused.`,
          }
        : ruleReading(rule);
  const hintId = `${id}-rule-hint`;
  const why = stays ?? (reading.unshown === undefined ? null : `The builder cannot show this rule: ${reading.unshown}`);
  // The server's words beside the page's own: "Shown to: tenant acmee." of a tenant that does not exist reads as
  // though the rule were fine.
  const checked = problems.length === 0 ? null : problems.map((problem) => problem.words).join(' ');
  const problem = [textError ?? words?.problem, checked].filter((part) => part != null).join(' ') || null;
  // Invalid only for what stops a publish: a rule in force naming a tenant removed since is said, not marked.
  const stopping = problems.filter((at) => at.blocking);
  // The words as the text stands, and what the live region holds: the words from before the operator began typing
  // in the JSON, kept until typing pauses (one element for both: a hidden copy to be heard would be read twice).
  const shown = {
    problem: problem !== null,
    text: problem ?? words?.words ?? 'No rule: shown to everyone who sees the location.',
  };
  const [held, setHeld] = useState<typeof shown | null>(null);
  const said = held ?? shown;
  const settling = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const settle = () => {
    clearTimeout(settling.current);
    setHeld(null);
  };
  useEffect(() => () => clearTimeout(settling.current), []);
  const problemAt = (condition: string) => (stopping.some((at) => at.condition === condition) ? hintId : undefined);

  const toggle = () => {
    if (!json) {
      setAsJson(true);
      return;
    }
    settle();
    if (textError !== null) {
      setStays('It stays in JSON until the text is JSON: mend it, or empty it for no rule. Nothing is lost.');
    } else if (reading.unshown === undefined) {
      setAsJson(false);
      setStays(null);
    }
  };

  return (
    // Described by the rule in words (or what is wrong with it): read with the group as the focus enters it.
    <fieldset id={ruleFieldId(id)} className="form__field rule-field" data-placement-rule aria-describedby={hintId}>
      <legend>Shown when rule of {name}</legend>
      <p className="rule-field__mode">
        <button
          type="button"
          className="button button--ghost"
          aria-pressed={json}
          // Its name starts with what it shows, and says whose rule it switches (unique on the page).
          aria-label={`Edit as JSON: Shown when rule of ${label}`}
          aria-describedby={why === null ? undefined : `${id}-rule-why`}
          onClick={toggle}
        >
          Edit as JSON
        </button>
      </p>
      {why !== null && (
        <p className="field__error" id={`${id}-rule-why`} role="status">
          {why}
        </p>
      )}
      {json ? (
        <>
          <label htmlFor={`${id}-rule`}>JSON of the Shown when rule of {name}</label>
          <textarea
            id={`${id}-rule`}
            rows={3}
            value={text}
            aria-invalid={textError !== null || stopping.length > 0}
            aria-describedby={hintId}
            {...{ [UNREAD_INPUT_ATTRIBUTE]: textError === null ? undefined : '' }}
            // Leaving the box ends the typing: its words are said.
            onBlur={settle}
            onChange={(event) => {
              const typed = event.target.value;
              setText(typed);
              if (held === null) setHeld(shown);
              clearTimeout(settling.current);
              settling.current = setTimeout(() => setHeld(null), RULE_WORDS_SETTLE_MS);
              setStays(null);
              if (typed.trim() === '') {
                setTextError(null);
                setTextFor('');
                setRule(undefined);
                return;
              }
              try {
                const parsed = JSON.parse(typed) as JsonValue;
                setTextFor(JSON.stringify(parsed));
                setRule(parsed);
                setTextError(null);
              } catch (error) {
                setTextError('Not JSON yet, e.g. {"roles": ["editor"]}.');
                // Nothing the draft can take, but unsaved all the same: leaving asks, saving refuses until fixed.
                touch();
              }
            }}
          />
        </>
      ) : (
        <RuleBuilder id={id} name={name} tree={reading.tree ?? null} setRule={setRule} problemAt={problemAt} />
      )}
      {/* Live, as well as the group's description: the description is read as the focus enters the group, and an
          edit inside it (a box ticked, a test chosen, JSON typed once typing pauses) changed the words unsaid. Polite,
          so it waits for what the screen reader is saying of the control itself. */}
      <p className={said.problem ? 'field__error' : 'field__help'} id={hintId} aria-live="polite">
        {said.text}
      </p>
    </fieldset>
  );
}
