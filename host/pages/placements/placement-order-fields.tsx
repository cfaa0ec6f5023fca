import { useState, type ReactNode } from 'react';
import { withKey, type DraftSlot, type DraftSlotAt } from './placements-draft';
import { idOf, isSlotId, NOT_AN_ID, orderFieldProblems, targetChoices, type LocationIds } from './placements-slot-ids';

/** Marks a box whose text the draft does not hold (not taken yet): a save or publish is refused while one shows. */
export const UNREAD_INPUT_ATTRIBUTE = 'data-placements-unread';

export interface OrderFieldsProps {
  /** The card's element id, the prefix of its fields' ids. */
  id: string;
  at: DraftSlotAt;
  /** How the card is named in its controls' labels (CardName). */
  name: ReactNode;
  /** Every slot of the card's location with its id: what the fields are checked against and choose among. */
  ids: LocationIds;
  change(change: (slot: DraftSlot) => DraftSlot): void;
  /** Called once a `before` or `after` is chosen (`target` '' for none), after the change: to say where it goes. */
  chosen?(relation: 'before' | 'after', target: string): void;
}

/**
 * A slot card's `id`, `before` and `after`: what the server's problems ask to mend (an id taken twice, a `before`
 * naming no slot of the location, a cycle), checked as the server checks them (placements-slot-ids.ts) and said at
 * the field. `before` and `after` choose among the location's other slots (code's and the file's too), or none.
 */
export function OrderFields({ id, at, name, ids, change, chosen }: OrderFieldsProps) {
  const { slot } = at;
  // The id as typed: text that is no id yet stays in the box, marked, and out of the draft (as a priority's).
  const given = slot.id === undefined ? '' : typeof slot.id === 'string' ? slot.id : JSON.stringify(slot.id);
  const [text, setText] = useState(given);
  const [textFor, setTextFor] = useState(given);
  if (textFor !== given) {
    setText(given);
    setTextFor(given);
  }
  const problems = orderFieldProblems(ids, at);
  const unread = text.trim() !== given && text.trim() !== '' && !isSlotId(text.trim());
  const idError = unread ? NOT_AN_ID : problems.id;
  const idHint =
    slot.id === undefined
      ? `Optional. Without one it is "${idOf(ids, at)}", from its component; other slots' "before" and "after" name it by its id.`
      : 'Other slots\' "before" and "after" name it by this id; empty: an id from its component.';

  return (
    <>
      <div className="form__field">
        <label htmlFor={`${id}-id`}>Id of {name}</label>
        <input
          id={`${id}-id`}
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={text}
          aria-invalid={idError !== null}
          aria-describedby={`${id}-id-hint`}
          {...{ [UNREAD_INPUT_ATTRIBUTE]: unread ? '' : undefined }}
          onChange={(event) => {
            const typed = event.target.value;
            const trimmed = typed.trim();
            setText(typed);
            if (trimmed !== '' && !isSlotId(trimmed)) {
              // Nothing the draft can take, but unsaved all the same: leaving asks, saving refuses until fixed.
              change((unchanged) => unchanged);
              return;
            }
            setTextFor(trimmed);
            change(withKey('id', trimmed === '' ? undefined : trimmed));
          }}
        />
        <p className={idError === null ? 'field__help' : 'field__error'} id={`${id}-id-hint`}>
          {idError ?? idHint}
        </p>
      </div>
      {(['before', 'after'] as const).map((relation) => (
        <TargetField
          key={relation}
          id={`${id}-${relation}`}
          relation={relation}
          at={at}
          name={name}
          ids={ids}
          problem={problems[relation]}
          set={(target) => {
            change(withKey(relation, target === '' ? undefined : target));
            chosen?.(relation, target);
          }}
        />
      ))}
    </>
  );
}

interface TargetFieldProps {
  id: string;
  relation: 'before' | 'after';
  at: DraftSlotAt;
  name: ReactNode;
  ids: LocationIds;
  problem: string | null;
  set(target: string): void;
}

/** `before` or `after`: one of the location's other slots by its id, or none; a target written otherwise stays shown. */
function TargetField({ id, relation, at, name, ids, problem, set }: TargetFieldProps) {
  const value = at.slot[relation];
  const current = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const choices = targetChoices(ids, at);
  const listed = current === '' || choices.some((choice) => choice.id === current);
  return (
    <div className="form__field">
      <label htmlFor={id}>
        {name} goes right {relation}
      </label>
      <select
        id={id}
        value={current}
        aria-invalid={problem !== null}
        aria-describedby={`${id}-hint`}
        onChange={(event) => set(event.target.value)}
      >
        <option value="">No slot: its priority places it</option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.id} — {choice.name}
          </option>
        ))}
        {/* A target no choice offers (no slot has it, or the slot itself) stays as written until another is chosen. */}
        {!listed && <option value={current}>{current} (as the draft writes it)</option>}
      </select>
      <p className={problem === null ? 'field__help' : 'field__error'} id={`${id}-hint`}>
        {problem ??
          `Optional: a slot of ${ids.location} it goes right ${relation}, whatever the priorities ("${relation}" names it by its id).`}
      </p>
    </div>
  );
}
