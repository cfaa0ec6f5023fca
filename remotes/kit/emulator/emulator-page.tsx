import { useEffect, useMemo, useState } from 'react';
import type { FormMode, JsonObject, RemoteDescriptorFile, ResourceRecord } from '../../../shared';
import type { SlotRuntime } from '../../../host/core/slot-runtime';
import { emulatedLocations, FORM_LOCATION, SAMPLE_CONTEXT, type EmulatedLocation } from '../emulated-slot';
import { EmulatedStage } from './emulated-stage';
import { exampleProps } from './example-props';

/** What the page shows, kept in its address: a reload on save (or a shared link) shows the same slot. */
interface EmulatorState {
  component: string;
  location: EmulatedLocation;
  /** The props as typed, JSON. */
  props: string;
  signedIn: boolean;
  wide: boolean;
  resource: string;
  /** The record as typed, JSON. */
  record: string;
  formMode: FormMode;
}

function propsTextOf(remote: RemoteDescriptorFile, component: string): string {
  return JSON.stringify(exampleProps(remote.props?.[component]), null, 2);
}

function readState(remote: RemoteDescriptorFile, search: string): EmulatorState {
  const query = new URLSearchParams(search);
  const component = remote.components.find((name) => name === query.get('component')) ?? remote.components[0] ?? '';
  const location = emulatedLocations().find((value) => value === query.get('location')) ?? 'dashboard-before-cards';
  return {
    component,
    location,
    props: query.get('props') ?? propsTextOf(remote, component),
    signedIn: query.get('signedIn') !== '0',
    wide: query.get('width') !== 'narrow',
    resource: query.get('resource') ?? SAMPLE_CONTEXT.resource,
    record: query.get('record') ?? JSON.stringify(SAMPLE_CONTEXT.record, null, 2),
    formMode: query.get('formMode') === 'create' ? 'create' : 'edit',
  };
}

/**
 * What the page's address asks that this remote does not declare (a component renamed since the link was made), said
 * rather than silently replaced by the first component: the product answers such a slot `unknown-component`.
 */
function unknownComponentNotice(remote: RemoteDescriptorFile, search: string): string | null {
  const asked = new URLSearchParams(search).get('component');
  if (asked === null || remote.components.includes(asked)) return null;
  const shown = remote.components[0];
  return (
    `The address asks for the component "${asked}", which remote.ts does not declare ` +
    `(its components: ${remote.components.join(', ') || 'none'})` +
    (shown === undefined ? '.' : `: ${shown} is shown. The product would render that slot as unknown-component.`)
  );
}

function writeState(state: EmulatorState): string {
  const { signedIn, wide, ...rest } = state;
  return new URLSearchParams({ ...rest, signedIn: signedIn ? '1' : '0', width: wide ? 'wide' : 'narrow' }).toString();
}

/** The text as a JSON object, or what is wrong with it. */
function parseObject(text: string, what: string): { value: JsonObject } | { problem: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { value: value as JsonObject };
    return { problem: `${what} must be a JSON object.` };
  } catch (error) {
    return { problem: `${what}: ${(error as Error).message}` };
  }
}

export interface EmulatorPageProps {
  remote: RemoteDescriptorFile;
  runtime: Partial<SlotRuntime>;
}

/**
 * The emulator's page: which component, where, with which props (from the schema's examples, edited here), for whom
 * (signed in or not), how wide, in which context (resource, record, form mode); then the slot as the product
 * renders it. Real data, real sign-in and the real pages stay in the product.
 */
export function EmulatorPage({ remote, runtime }: EmulatorPageProps) {
  const [state, setState] = useState(() => readState(remote, window.location.search));
  // Read before the address is written again with the component shown; said until another is chosen.
  const [unknownComponent, setUnknownComponent] = useState(() =>
    unknownComponentNotice(remote, window.location.search),
  );
  useEffect(() => window.history.replaceState(null, '', `?${writeState(state)}`), [state]);
  const change = (patch: Partial<EmulatorState>) => setState((current) => ({ ...current, ...patch }));

  const props = useMemo(() => parseObject(state.props, 'Props'), [state.props]);
  const record = useMemo(() => parseObject(state.record, 'Record'), [state.record]);
  const problem = 'problem' in props ? props.problem : 'problem' in record ? record.problem : null;
  const context = useMemo(
    () => ({
      resource: state.resource,
      record: ('value' in record ? record.value : SAMPLE_CONTEXT.record) as ResourceRecord,
      formMode: state.formMode,
    }),
    [state.resource, record, state.formMode],
  );

  return (
    <div className="emulator">
      <header className="emulator__header">
        <h1>{remote.name}: host emulator</h1>
        <p>
          Each component rendered as the product renders a slot (its renderer, error boundary, loading path and props
          check), reloaded on save. Real data, sign-in and pages: point the product at this server.
        </p>
        {unknownComponent !== null && (
          <p role="status" className="emulator__problem" data-unknown-component>
            {unknownComponent}
          </p>
        )}
      </header>
      <form className="emulator__controls" onSubmit={(event) => event.preventDefault()} aria-label="Slot">
        <label>
          Component
          <select
            name="component"
            value={state.component}
            onChange={(event) => {
              setUnknownComponent(null);
              change({ component: event.target.value, props: propsTextOf(remote, event.target.value) });
            }}
          >
            {remote.components.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <label>
          Location
          <select
            name="location"
            value={state.location}
            onChange={(event) => change({ location: event.target.value as EmulatedLocation })}
          >
            {emulatedLocations().map((value) => (
              <option key={value} value={value}>
                {value === FORM_LOCATION ? "form (a resource form's fields)" : value}
              </option>
            ))}
          </select>
        </label>
        <label>
          Props (JSON)
          <textarea
            name="props"
            rows={4}
            value={state.props}
            onChange={(event) => change({ props: event.target.value })}
          />
        </label>
        <button type="button" onClick={() => change({ props: propsTextOf(remote, state.component) })}>
          Props from the schema's examples
        </button>
        <label>
          <input
            type="checkbox"
            name="signedIn"
            checked={state.signedIn}
            onChange={(event) => change({ signedIn: event.target.checked })}
          />
          Signed in
        </label>
        <label>
          Width
          <select
            name="width"
            value={state.wide ? 'wide' : 'narrow'}
            onChange={(event) => change({ wide: event.target.value === 'wide' })}
          >
            <option value="wide">wide (1280 px)</option>
            <option value="narrow">narrow (375 px)</option>
          </select>
        </label>
        <fieldset>
          <legend>Context (resource action locations and forms)</legend>
          <label>
            Resource
            <input
              name="resource"
              value={state.resource}
              onChange={(event) => change({ resource: event.target.value })}
            />
          </label>
          <label>
            Record (JSON)
            <textarea
              name="record"
              rows={4}
              value={state.record}
              onChange={(event) => change({ record: event.target.value })}
            />
          </label>
          <label>
            Form mode
            <select
              name="formMode"
              value={state.formMode}
              onChange={(event) => change({ formMode: event.target.value === 'create' ? 'create' : 'edit' })}
            >
              <option value="edit">edit</option>
              <option value="create">create</option>
            </select>
          </label>
        </fieldset>
      </form>
      {problem !== null || !('value' in props) ? (
        <p role="alert" className="emulator__problem">
          {problem}
        </p>
      ) : (
        <EmulatedStage
          runtime={runtime}
          component={state.component}
          location={state.location}
          props={props.value}
          context={context}
          signedIn={state.signedIn}
          wide={state.wide}
        />
      )}
    </div>
  );
}
