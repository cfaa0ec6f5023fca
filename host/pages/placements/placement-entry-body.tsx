import { lazy, Suspense, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import type { JsonSchema, JsonValue, PlacementProblem } from '../../../shared';
import { fieldId, pathSteps, problemInWords, propLabel } from './prop-words';

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
}

const NO_PROBLEMS: readonly PlacementProblem[] = [];

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
}: PlacementEntryBodyProps) {
  const propsForm = useRef<HTMLDetailsElement>(null);
  // A problem with a prop (it has a path) opens the props form, where it is mended; the operator may close it again.
  const propsProblem = problems.some((problem) => problem.path !== null);
  useEffect(() => {
    if (propsProblem && propsForm.current) propsForm.current.open = true;
  }, [propsProblem]);
  // The props the problems were found in: once the operator edits them, the form's own check speaks at the fields
  // (the list below keeps the draft check's words until the next save).
  // By its problems' objects: the list is made anew at each render of the page (a filter of every problem), its
  // problems only by a check (a save), even one that finds the same.
  const [checked, setChecked] = useState({ problems, props: JSON.stringify(props) });
  if (!sameItems(checked.problems, problems)) setChecked({ problems, props: JSON.stringify(props) });
  const atFields = checked.props === JSON.stringify(props) ? problems : NO_PROBLEMS;
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
        <details className="placements__props" ref={propsForm}>
          <summary>Props of {name}</summary>
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
            const field = schema !== null && atFields.includes(problem) ? fieldId(`${id}-props`, problem) : null;
            const steps = problem.path === null ? null : pathSteps(problem.path);
            return (
              <li key={`${problem.kind}|${problem.path ?? ''}|${problem.message}`}>
                {field !== null && steps !== null ? (
                  <>
                    <a href={`#${field}`} onClick={(event) => goToField(event, field)}>
                      {propLabel(schema, steps)}
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
 * the page keeps the location shown in it).
 */
function goToField(event: MouseEvent<HTMLAnchorElement>, fieldId: string): void {
  event.preventDefault();
  const field = document.getElementById(fieldId);
  const details = field?.closest('details');
  if (details) details.open = true;
  field?.focus();
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
