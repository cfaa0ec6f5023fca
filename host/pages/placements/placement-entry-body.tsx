import { lazy, Suspense, useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import type { JsonSchema, JsonValue, PlacementProblem } from '../../../shared';
import { fieldId, pathSteps, problemInWords, propLabel } from './prop-words';
import { useProblemsAtField } from './use-problems-at-field';

const PlacementPropsForm = lazy(
  () => import(/* webpackChunkName: "tool-library-props-form" */ './placement-props-form'),
);

export interface PlacementEntryBodyProps {
  /** The entry's element id, the prefix of its form fields' ids. */
  id: string;
  /** How the entry is named to the operator (the props form's summary, the remove button): unique on the page. */
  name: ReactNode;
  schema: JsonSchema | null;
  props: JsonValue;
  problems: readonly PlacementProblem[];
  setProps: (props: JsonValue) => void;
  remove: () => void;
  /**
   * Whether the server left its props out (`propsHidden`): its rule shows it only in tenants the reader does not
   * belong to (server/placements/shown-placements.ts).
   */
  propsHidden?: boolean;
  /**
   * Problems said at a field of the card above the body (its rule's): the list links to that field rather than
   * saying them again in the same words.
   */
  saidAt?: ReadonlyMap<PlacementProblem, FieldLink>;
}

/**
 * A field of the card a problem is said at: the element the list's link goes to, and the field's label as its form
 * shows it (`Shown when rule`), which the link says of the entry (`Shown when rule of Banner (team_marketing) #2`).
 */
export interface FieldLink {
  id: string;
  label: string;
}

/**
 * What every entry of the placements editor ends with, a location slot or a form slot alike: its props form made
 * from the component's JSON Schema (loaded with the form library's chunk), the draft check's problems, and removal.
 */
export function PlacementEntryBody({
  id,
  name,
  schema,
  props,
  problems,
  setProps,
  remove,
  propsHidden = false,
  saidAt,
}: PlacementEntryBodyProps) {
  const propsForm = useRef<HTMLDetailsElement>(null);
  // A problem with a prop (it has a path) opens the props form, where it is mended; the operator may close it again.
  const propsProblem = problems.some((problem) => problem.path !== null);
  useEffect(() => {
    if (propsProblem && propsForm.current) propsForm.current.open = true;
  }, [propsProblem]);
  // Once the operator edits the props, the form's own check speaks at the fields (the list below keeps the draft
  // check's words until the next save).
  const atFields = useProblemsAtField(problems, props);
  return (
    <>
      {propsHidden ? (
        <p className="muted" data-placement-props-hidden>
          The props of {name} are not shown: its rule shows it only in tenants you do not belong to, and they are those
          tenants' data.
        </p>
      ) : schema === null ? (
        <p className="muted">
          {/* No schema because no remote provides the component: "its remote declares none" beside the problem
              naming it unknown read as if the component were known. */}
          {problems.some((problem) => problem.kind === 'unknown-component')
            ? 'Its component is unknown (its problem below says why): there is no props form for it, and its props are kept as they are.'
            : 'Its remote declares no props schema: its props are kept as they are.'}
        </p>
      ) : (
        // Named by its summary: Chromium exposes a details box as a group, and without a name a screen reader
        // announced "group" alone as the focus went into the props form.
        <details className="placements__props" ref={propsForm} aria-labelledby={`${id}-props-summary`}>
          <summary id={`${id}-props-summary`}>Props of {name}</summary>
          <Suspense fallback={<p role="status">Loading the form…</p>}>
            <PlacementPropsForm
              schema={schema}
              props={props}
              idPrefix={`${id}-props`}
              owner={name}
              problems={atFields}
              onChange={setProps}
            />
          </Suspense>
        </details>
      )}
      {problems.length > 0 && (
        <ul className="form-error placements__problems" data-placement-problems>
          {problems.map((problem) => {
            // Said at its field already (the props form shows the saved draft's problems there): linked to it, not
            // said again in the same words.
            const steps = problem.path === null ? null : pathSteps(problem.path);
            const propField = schema !== null && atFields.includes(problem) ? fieldId(`${id}-props`, problem) : null;
            const field =
              propField !== null && steps !== null
                ? { id: propField, label: propLabel(schema, steps) }
                : (saidAt?.get(problem) ?? null);
            return (
              <li key={`${problem.kind}|${problem.path ?? ''}|${problem.message}`}>
                {field !== null ? (
                  <>
                    {/* Named as its field's label names it, with the entry (and where it is, to screen readers): a
                        list of links read out of the page (a screen reader's links list) said "Title" once per card,
                        not which card's title. */}
                    <a href={`#${field.id}`} onClick={(event) => goToField(event, field.id)}>
                      {field.label} of {name}
                    </a>
                    : its problem is said at its field
                  </>
                ) : (
                  problemInWords(problem, schema)
                )}
                {problem.blocking ? '' : ' (a warning: it does not stop a publish)'}
              </li>
            );
          })}
        </ul>
      )}
      <button type="button" className="button button--secondary" onClick={remove}>
        Remove {name}
      </button>
    </>
  );
}

/**
 * Follows a problem's link to its field: focused, its props form opened if closed (the address's hash is left alone:
 * the page keeps the location shown in it). A field of several controls (a rule's fieldset) focuses the one marked
 * invalid, else its first.
 */
function goToField(event: MouseEvent<HTMLAnchorElement>, fieldId: string): void {
  event.preventDefault();
  const field = document.getElementById(fieldId);
  const details = field?.closest('details');
  if (details) details.open = true;
  const control =
    field instanceof HTMLFieldSetElement
      ? (field.querySelector<HTMLElement>('[aria-invalid="true"]') ??
        field.querySelector<HTMLElement>('input, textarea, select, button'))
      : field;
  control?.focus();
}
