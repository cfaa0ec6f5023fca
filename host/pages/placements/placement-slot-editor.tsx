import { useRef, useState } from 'react';
import type { JsonSchema, JsonValue, PlacementProblem } from '../../../shared';
import { CardName, cardDetails } from './placement-card-name';
import { PlacementEntryBody } from './placement-entry-body';
import { OrderFields, UNREAD_INPUT_ATTRIBUTE } from './placement-order-fields';
import { PROPS_HIDDEN_KEY } from '../../../shared/placements-hidden-tenants';
import { COUNTED_RULE_NOTE, countedRuleWords } from './placements-counted-rule';
import { RuleField, ruleFieldId } from './placements-rule-field';
import { ruleProblemPlace } from './rule-problem-place';
import { useProblemsAtField } from './use-problems-at-field';
import {
  priorityFromText,
  priorityOf,
  priorityProblem,
  priorityText,
  slotKey,
  withKey,
  type DraftSlot,
  type DraftSlotAt,
} from './placements-draft';
import type { LocationIds } from './placements-slot-ids';

const PRIORITY_ERROR =
  `Not a whole number: type one such as 10 or -5, at most ${Number.MAX_SAFE_INTEGER} either side of 0 ` +
  '(empty: 50).';

/**
 * What the server does with a rule at a public location (server/slots/slot-registry.ts refuseUserRulesInPublic, which
 * the draft's check runs): it refuses the slot, so the draft cannot be published with it.
 */
const PUBLIC_RULE_NOTE =
  'A public location takes no rule: GET /slots sends one cached answer to every visitor, signed in or not, and ' +
  'evaluates no rule (not even one over flags). So the server refuses this slot with its rule, and a publish with ' +
  'it: remove the rule to show the slot to everyone, or place the component at a protected location to keep it.';

export interface SlotEditorProps {
  at: DraftSlotAt;
  /** Its number among its location's cards (from 1), as the page lists them and a refused publish names them. */
  place: number;
  isPublic: boolean;
  /** Every slot of its location with its id (code's and the file's too): for its id, `before` and `after`. */
  ids: LocationIds;
  schema: JsonSchema | null;
  problems: readonly PlacementProblem[];
  change(change: (slot: DraftSlot) => DraftSlot | null): void;
  /**
   * Called once its `before` or `after` is chosen (`target` '' for none), so the location says where the slot now
   * goes: its card stays where its priority lists it.
   */
  ordered?(relation: 'before' | 'after', target: string): void;
  /** Called once the slot is removed, with how it was named (its title), so the location moves focus and says so. */
  removed?(title: string): void;
}

/**
 * One slot of the draft as a card: its priority, id, `before` and `after`, its "Shown when" rule, its props and
 * problems, and removal. Each card is named apart from the others of its component (its number, with its id and a
 * prop that reads as its title in its heading), and so are its controls, on the whole page (CardName).
 */
export function SlotEditor({ at, place, isPublic, ids, schema, problems, change, ordered, removed }: SlotEditorProps) {
  const { slot } = at;
  const title = `${String(slot.component)} (${at.remote}) #${place}`;
  const name = <CardName name={title} where={`at ${at.location}`} />;
  const details = cardDetails(slot);
  const id = `placement-${at.remote}-${at.location}-${at.index}`;
  const heading = useRef<HTMLHeadingElement>(null);
  const current = slot.visibleWhen === undefined ? '' : JSON.stringify(slot.visibleWhen);
  // A rule shown with tenants counted (the page is read only): in words, as no JSON to edit.
  const counted = countedRuleWords(slot.visibleWhen);
  // The priority as typed: an empty box, a lone minus sign or a fraction are steps of typing, not the default (50).
  // One the document writes otherwise (`"7"`, text) is shown as written, with why the server refuses it.
  const priority = priorityText(slot);
  const [typedPriority, setTypedPriority] = useState(priority);
  const [priorityFor, setPriorityFor] = useState(priority);
  if (priorityFor !== priority) {
    setTypedPriority(priority);
    setPriorityFor(priority);
  }
  const unreadPriority = typedPriority !== priority && priorityFromText(typedPriority) === null;
  const priorityError = unreadPriority ? PRIORITY_ERROR : typedPriority === priority ? priorityProblem(slot) : null;
  const setKey = (key: string, value: JsonValue | undefined) => change(withKey(key, value));
  // The rule's problems are said at its field while it is the rule checked, the card's list linking to it; once
  // edited, the list says them in full until the next save checks it again.
  const ruleEditable = counted === null && !isPublic;
  const ruleProblems = useProblemsAtField(
    problems.filter((problem) => ruleProblemPlace(problem) !== null),
    slot.visibleWhen,
  );
  const atRule = ruleEditable ? ruleProblems : [];
  const ruleLink = { id: ruleFieldId(id), label: 'Shown when rule' };

  return (
    <li
      className="placements__slot"
      data-placement-slot={`${at.remote}:${String(slot.component)}`}
      data-entry-key={slotKey(at)}
    >
      <h3 className="placements__slot-title" ref={heading} tabIndex={-1}>
        {[title, ...details].join(', ')}
      </h3>
      <div className="form__field">
        <label htmlFor={`${id}-priority`}>Priority of {name}</label>
        <input
          id={`${id}-priority`}
          type="text"
          inputMode="numeric"
          value={typedPriority}
          aria-invalid={priorityError !== null}
          aria-describedby={`${id}-priority-hint`}
          {...{ [UNREAD_INPUT_ATTRIBUTE]: unreadPriority ? '' : undefined }}
          onChange={(event) => {
            const text = event.target.value;
            setTypedPriority(text);
            // Empty: the default; anything not a whole number yet changes nothing but counts as unsaved.
            const next = priorityFromText(text);
            if (next === null) {
              change((unchanged) => unchanged);
              return;
            }
            setPriorityFor(String(next ?? priorityOf({})));
            setKey('priority', next);
          }}
        />
        <p className={priorityError === null ? 'field__help' : 'field__error'} id={`${id}-priority-hint`}>
          {priorityError ?? 'A whole number, lower first; empty: 50.'}
        </p>
      </div>
      <OrderFields id={id} at={at} name={name} ids={ids} change={change} chosen={ordered} />
      {counted !== null ? (
        <div className="form__field" data-placement-counted-rule>
          <p>
            Shown when rule of {name}: {counted}
          </p>
          <p className="field__help">{COUNTED_RULE_NOTE}</p>
          {isPublic && <p className="field__error">{PUBLIC_RULE_NOTE}</p>}
        </div>
      ) : ruleEditable ? (
        <RuleField
          id={id}
          name={name}
          label={`${title} at ${at.location}`}
          rule={slot.visibleWhen}
          setRule={(rule) => setKey('visibleWhen', rule)}
          touch={() => change((unchanged) => unchanged)}
          problems={atRule.flatMap((problem) => ruleProblemPlace(problem) ?? [])}
        />
      ) : (
        // None is offered here (the server refuses them), but one the draft has (imported, written by hand) is shown,
        // with what the server does with it and a way to drop it.
        slot.visibleWhen !== undefined && (
          <div className="form__field" data-placement-public-rule>
            <p>
              Shown when rule of {name}: <code>{current}</code>
            </p>
            <p className="field__error">{PUBLIC_RULE_NOTE}</p>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setKey('visibleWhen', undefined);
                // The button goes with the rule: the focus stays with the card rather than falling to the page's top.
                heading.current?.focus();
              }}
            >
              Remove the Shown when rule of {name}
            </button>
          </div>
        )
      )}
      <PlacementEntryBody
        id={id}
        name={name}
        schema={schema}
        props={slot.props ?? {}}
        propsHidden={slot[PROPS_HIDDEN_KEY] === true}
        problems={problems}
        saidAt={new Map(atRule.map((problem) => [problem, ruleLink]))}
        setProps={(props) => setKey('props', props)}
        remove={() => {
          change(() => null);
          removed?.(title);
        }}
      />
    </li>
  );
}
