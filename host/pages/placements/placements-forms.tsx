import { useRef, useState } from 'react';
import { cardDetails } from './placement-card-name';
import { PlacementEntryBody } from './placement-entry-body';
import type {
  JsonSchema,
  JsonValue,
  PlacementComponentsPayload,
  PlacementProblem,
  ResourceListPayload,
  ResourcePayload,
} from '../../../shared';
import { useApi } from '../../hooks/use-api';
import { countOf } from '../common/count-in-words';
import { withKey, type DraftSlot } from './placements-draft';
import { formLocation, positionChoice, positionOf, type DraftFormSlotAt } from './placements-form-slots';
import { useAddedEntry } from './use-added-entry';

/** A form slot's key in the editor: where the document holds it. */
function formSlotKey(at: DraftFormSlotAt): string {
  return `${at.remote}|${at.resource}|${at.index}`;
}

export interface PlacementsFormsProps {
  /** Not what the editor shows (it shows one location at a time): kept rendered, so what is typed in it stays. */
  hidden?: boolean;
  formSlots: readonly DraftFormSlotAt[];
  problems: readonly PlacementProblem[];
  components: PlacementComponentsPayload;
  change(at: DraftFormSlotAt, change: (slot: DraftSlot) => DraftSlot | null): void;
  add(remote: string, resource: string, component: string, position: JsonValue | undefined): void;
  /**
   * The page's latest outcome (a save, a publish, an import): once it changes, what was said of an Add or a Remove
   * here ("… in the draft") is cleared, as no longer news.
   */
  outcome?: unknown;
}

/**
 * The draft's form slots (a remote entry's `"forms"`: per resource, components placed among its form's fields):
 * each with its position, props from its component's schema and its problems, and a way to add one.
 */
export function PlacementsForms(props: PlacementsFormsProps) {
  const resources = useApi<ResourceListPayload>('/api/resources');
  const labelOf = (name: string) =>
    (resources.status === 'ready'
      ? resources.data.resources.find((resource) => resource.name === name)?.label
      : null) ?? name;
  const section = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const added = useAddedEntry(section, props.formSlots.map(formSlotKey), props.outcome);
  return (
    <section
      ref={section}
      className="inspector__section"
      aria-labelledby="placements-forms"
      data-placements-forms
      hidden={props.hidden}
    >
      <h2 id="placements-forms" ref={heading} tabIndex={-1}>
        Form slots
      </h2>
      <p className="muted">Components of a remote placed among the fields of a resource’s form.</p>
      {props.formSlots.length === 0 ? (
        <p className="empty">The draft places nothing in a form.</p>
      ) : (
        <ol className="placements__slots">
          {props.formSlots.map((at, index) => (
            <FormSlotEditor
              key={formSlotKey(at)}
              at={at}
              place={index + 1}
              resourceLabel={labelOf(at.resource)}
              schema={schemaOf(props.components, at.remote, String(at.slot.component))}
              problems={props.problems.filter(
                (problem) =>
                  problem.remote === at.remote &&
                  problem.location === formLocation(at.resource) &&
                  problem.index === at.index,
              )}
              change={(change) => props.change(at, change)}
              removed={(name) =>
                added.removed(
                  `Removed ${name}: ${countOf(props.formSlots.length - 1, 'form slot')} in the draft.`,
                  heading.current,
                )
              }
            />
          ))}
        </ol>
      )}
      {resources.status === 'ready' && (
        <AddFormSlot
          resources={resources.data}
          components={props.components}
          add={(remote, resource, component, position) => {
            const count = props.formSlots.filter((at) => at.resource === resource).length + 1;
            added.adding(
              `Added ${component} (${remote}) to the ${labelOf(resource)} form: ${countOf(count, 'form slot')} there in the draft.`,
            );
            props.add(remote, resource, component, position);
          }}
        />
      )}
      <p className="visually-hidden" role="status">
        {added.announcement}
      </p>
    </section>
  );
}

function schemaOf(components: PlacementComponentsPayload, remote: string, component: string): JsonSchema | null {
  const found = components.remotes.find((candidate) => candidate.name === remote);
  return found?.components.find((candidate) => candidate.name === component)?.schema ?? null;
}

/** The choices of a form slot's position: the end, before or after each field of the resource's form. */
function PositionSelect(props: {
  id: string;
  label: string;
  resource: string;
  value: string;
  set(value: string): void;
}) {
  const definition = useApi<ResourcePayload>(`/api/resources/${encodeURIComponent(props.resource)}`);
  const fields =
    definition.status === 'ready'
      ? definition.data.resource.fields.flatMap((item) => (item.type === 'field' ? [item] : []))
      : [];
  const choices = [
    { value: 'end', label: 'After every field' },
    ...fields.flatMap((field) => [
      { value: `before:${field.name}`, label: `Before ${field.label}` },
      { value: `after:${field.name}`, label: `After ${field.label}` },
    ]),
  ];
  // A position the form does not offer (an index, a field it lacks) stays choosable as written: the check names it.
  if (!choices.some((choice) => choice.value === props.value)) choices.push({ value: props.value, label: props.value });
  return (
    <div className="form__field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(event) => props.set(event.target.value)}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

interface FormSlotEditorProps {
  at: DraftFormSlotAt;
  /** Its number among the form slots' cards (from 1), as a refused publish names it (`Form slots #1`). */
  place: number;
  resourceLabel: string;
  schema: JsonSchema | null;
  problems: readonly PlacementProblem[];
  change(change: (slot: DraftSlot) => DraftSlot | null): void;
  /** Called once the form slot is removed, with how it was named, so the list moves focus and says so. */
  removed(name: string): void;
}

function FormSlotEditor({ at, place, resourceLabel, schema, problems, change, removed }: FormSlotEditorProps) {
  // Numbered, as two form slots of one component in one form would otherwise read alike (and so would their controls).
  const name = `${String(at.slot.component)} (${at.remote}) in the ${resourceLabel} form (Form slots #${place})`;
  const id = `placement-form-${at.remote}-${at.resource}-${at.index}`;
  const setKey = (key: string, value: JsonValue | undefined) => change(withKey(key, value));
  return (
    <li
      className="placements__slot"
      data-placement-form-slot={`${at.remote}:${at.resource}:${String(at.slot.component)}`}
      data-entry-key={formSlotKey(at)}
    >
      <h3 className="placements__slot-title">{[name, ...cardDetails(at.slot)].join(', ')}</h3>
      <PositionSelect
        id={`${id}-position`}
        label={`Position of ${name}`}
        resource={at.resource}
        value={positionChoice(at.slot.position)}
        set={(choice) => setKey('position', positionOf(choice))}
      />
      <PlacementEntryBody
        id={id}
        name={name}
        schema={schema}
        props={at.slot.props ?? {}}
        problems={problems}
        setProps={(props) => setKey('props', props)}
        remove={() => {
          change(() => null);
          removed(name);
        }}
      />
    </li>
  );
}

interface AddFormSlotProps {
  resources: ResourceListPayload;
  components: PlacementComponentsPayload;
  add: PlacementsFormsProps['add'];
}

/** Adds a form slot: a resource, one of a remote's form components, and where among the form's fields. */
function AddFormSlot({ resources, components, add }: AddFormSlotProps) {
  const options = components.remotes.flatMap((remote) =>
    remote.components.flatMap((component) => (component.form ? [`${remote.name}:${component.name}`] : [])),
  );
  const [resource, setResource] = useState('');
  const [choice, setChoice] = useState('');
  const [position, setPosition] = useState('end');
  if (options.length === 0 || resources.resources.length === 0) {
    return <p className="muted">No remote known now lists a form component: there is nothing to place in a form.</p>;
  }
  return (
    <fieldset className="placements__add">
      <legend>Add a form slot</legend>
      <div className="form__field">
        <label htmlFor="placements-form-add-resource">Form of the resource</label>
        <select
          id="placements-form-add-resource"
          value={resource}
          onChange={(event) => {
            setResource(event.target.value);
            setPosition('end');
          }}
        >
          <option value="">Choose a resource…</option>
          {resources.resources.map((item) => (
            <option key={item.name} value={item.name}>
              {item.label}
            </option>
          ))}
        </select>
      </div>
      <div className="form__field">
        <label htmlFor="placements-form-add-component">Form component</label>
        <select id="placements-form-add-component" value={choice} onChange={(event) => setChoice(event.target.value)}>
          <option value="">Choose a component…</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option.replace(':', ': ')}
            </option>
          ))}
        </select>
      </div>
      {resource !== '' && (
        <PositionSelect
          id="placements-form-add-position"
          label="Position in the form"
          resource={resource}
          value={position}
          set={setPosition}
        />
      )}
      <button
        type="button"
        className="button button--secondary"
        disabled={resource === '' || choice === ''}
        onClick={() => {
          const [remote, component] = choice.split(':') as [string, string];
          add(remote, resource, component, positionOf(position));
          setChoice('');
          setPosition('end');
        }}
      >
        Add the form slot
      </button>
    </fieldset>
  );
}
