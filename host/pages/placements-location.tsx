import { useRef, useState } from 'react';
import { PlacementEntryBody } from './placement-entry-body';
import type {
  JsonSchema,
  JsonValue,
  PlacementComponentsPayload,
  PlacementPreview,
  PlacementProblem,
} from '../../shared';
import { priorityFromText, priorityOf, slotKey, type DraftSlot, type DraftSlotAt } from './placements-draft';
import { countOf } from './count-in-words';
import { useAddedEntry } from './use-added-entry';

export interface PlacementsLocationProps {
  location: string;
  isPublic: boolean;
  slots: readonly DraftSlotAt[];
  problems: readonly PlacementProblem[];
  /** This location's order with the saved draft published (code's, the file's and the draft's slots). */
  preview: PlacementPreview[string] | undefined;
  components: PlacementComponentsPayload;
  change(at: DraftSlotAt, change: (slot: DraftSlot) => DraftSlot | null): void;
  add(remote: string, component: string): void;
}

/** One location of the draft: its slots in order, each editable, their problems, and a way to add one. */
export function PlacementsLocation(props: PlacementsLocationProps) {
  const { location, slots } = props;
  const headingId = `placements-${location}`;
  const section = useRef<HTMLElement>(null);
  const added = useAddedEntry(section, slots.map(slotKey));
  return (
    <section
      ref={section}
      className="inspector__section"
      aria-labelledby={headingId}
      data-placements-location={location}
    >
      <h2 id={headingId}>{location}</h2>
      <p className="muted">{props.isPublic ? 'public: no "Shown when" rule here' : 'protected'}</p>
      {slots.length === 0 ? (
        <p className="empty">The draft places nothing here.</p>
      ) : (
        <ol className="placements__slots">
          {slots.map((at) => (
            <SlotEditor
              key={slotKey(at)}
              at={at}
              isPublic={props.isPublic}
              schema={schemaOf(props.components, at)}
              problems={props.problems.filter(
                (problem) =>
                  problem.remote === at.remote && problem.location === location && problem.index === at.index,
              )}
              change={(change) => props.change(at, change)}
            />
          ))}
        </ol>
      )}
      <AddSlot
        location={location}
        components={props.components}
        add={(remote, component) => {
          added.adding(
            `Added ${component} (${remote}) at ${location}: ${countOf(slots.length + 1, 'slot')} there in the draft.`,
          );
          props.add(remote, component);
        }}
      />
      <p className="visually-hidden" role="status">
        {added.announcement}
      </p>
      {props.preview !== undefined && props.preview.length > 0 && (
        <div className="placements__preview" data-placements-preview={location}>
          <h3>Order with the saved draft published</h3>
          <ol>
            {props.preview.map((slot) => (
              <li key={`${slot.source}|${slot.id}`}>
                {slot.id} ({slot.source === 'code' ? 'code' : `${slot.source}, ${slot.remote ?? ''}`})
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

const PRIORITY_ERROR =
  `Not a whole number: type one such as 10 or -5, at most ${Number.MAX_SAFE_INTEGER} either side of 0 ` +
  '(empty: 50).';

function schemaOf(components: PlacementComponentsPayload, at: DraftSlotAt): JsonSchema | null {
  const remote = components.remotes.find((candidate) => candidate.name === at.remote);
  return remote?.components.find((component) => component.name === at.slot.component)?.schema ?? null;
}

interface SlotEditorProps {
  at: DraftSlotAt;
  isPublic: boolean;
  schema: JsonSchema | null;
  problems: readonly PlacementProblem[];
  change(change: (slot: DraftSlot) => DraftSlot | null): void;
}

function SlotEditor({ at, isPublic, schema, problems, change }: SlotEditorProps) {
  const { slot } = at;
  const name = `${String(slot.component)} (${at.remote})`;
  const id = `placement-${at.remote}-${at.location}-${at.index}`;
  const current = slot.visibleWhen === undefined ? '' : JSON.stringify(slot.visibleWhen);
  const [rule, setRule] = useState(current);
  // The rule the text stands for: when the slot's rule changes otherwise (a slot above removed, a rollback), the
  // text follows it; while the operator types, it stays as typed.
  const [ruleFor, setRuleFor] = useState(current);
  const [ruleError, setRuleError] = useState<string | null>(null);
  if (ruleFor !== current) {
    setRule(current);
    setRuleFor(current);
    setRuleError(null);
  }
  // The priority as typed: an empty box, a lone minus sign or a fraction are steps of typing, not the default (50).
  const priority = String(priorityOf(slot));
  const [priorityText, setPriorityText] = useState(priority);
  const [priorityFor, setPriorityFor] = useState(priority);
  if (priorityFor !== priority) {
    setPriorityText(priority);
    setPriorityFor(priority);
  }
  const priorityError = priorityFromText(priorityText) === null ? PRIORITY_ERROR : null;
  const setKey = (key: string, value: JsonValue | undefined) =>
    change((current) => {
      const { [key]: _old, ...rest } = current;
      return value === undefined ? rest : { ...rest, [key]: value };
    });

  return (
    <li
      className="placements__slot"
      data-placement-slot={`${at.remote}:${String(slot.component)}`}
      data-entry-key={slotKey(at)}
    >
      <h3 className="placements__slot-title">{name}</h3>
      <div className="form__field">
        <label htmlFor={`${id}-priority`}>Priority of {name}</label>
        <input
          id={`${id}-priority`}
          type="text"
          inputMode="numeric"
          value={priorityText}
          aria-invalid={priorityError !== null}
          aria-describedby={`${id}-priority-hint`}
          onChange={(event) => {
            const text = event.target.value;
            setPriorityText(text);
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
      {!isPublic && (
        <div className="form__field">
          <label htmlFor={`${id}-rule`}>Shown when rule of {name}</label>
          <textarea
            id={`${id}-rule`}
            rows={2}
            value={rule}
            aria-invalid={ruleError !== null}
            aria-describedby={`${id}-rule-hint`}
            onChange={(event) => {
              const text = event.target.value;
              setRule(text);
              if (text.trim() === '') {
                setRuleError(null);
                setRuleFor('');
                setKey('visibleWhen', undefined);
                return;
              }
              try {
                const parsed = JSON.parse(text) as JsonValue;
                setRuleFor(JSON.stringify(parsed));
                setKey('visibleWhen', parsed);
                setRuleError(null);
              } catch {
                setRuleError('Not JSON yet, e.g. {"roles": ["editor"]}.');
                // Nothing the draft can take, but unsaved all the same: leaving asks, saving refuses until fixed.
                change((unchanged) => unchanged);
              }
            }}
          />
          <p className={ruleError === null ? 'field__help' : 'field__error'} id={`${id}-rule-hint`}>
            {ruleError ?? 'A rule in JSON; empty: always.'}
          </p>
        </div>
      )}
      <PlacementEntryBody
        id={id}
        name={name}
        schema={schema}
        props={slot.props ?? {}}
        problems={problems}
        setProps={(props) => setKey('props', props)}
        remove={() => change(() => null)}
      />
    </li>
  );
}

function AddSlot({ location, components, add }: Pick<PlacementsLocationProps, 'location' | 'components' | 'add'>) {
  const options = components.remotes.flatMap((remote) =>
    remote.components.map((component) => `${remote.name}:${component.name}`),
  );
  const [choice, setChoice] = useState('');
  const select = useRef<HTMLSelectElement>(null);
  const selectId = `placements-add-${location}`;
  if (options.length === 0) return null;
  return (
    <div className="placements__add">
      <label htmlFor={selectId}>Add a slot at {location}</label>
      <select id={selectId} ref={select} value={choice} onChange={(event) => setChoice(event.target.value)}>
        <option value="">Choose a component…</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option.replace(':', ': ')}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button--secondary"
        disabled={choice === ''}
        onClick={() => {
          const [remote, component] = choice.split(':') as [string, string];
          add(remote, component);
          setChoice('');
          // The button is disabled until the next choice: focus would fall to the page's top otherwise. The new
          // entry takes it once shown (useAddedEntry); this is where it waits.
          select.current?.focus();
        }}
      >
        Add
      </button>
    </div>
  );
}
