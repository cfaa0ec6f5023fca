import { Suspense, useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import type {
  FormContext,
  FormSlotEntry,
  JsonObject,
  ResourceActionContext,
  SlotContent,
  SlotEntry,
} from '../../shared';
import { HOST_MESSAGES } from '../loader/messages';
import type { SlotComponent } from './component-registry';
import { SlotErrorBoundary, SlotFailureError } from './slot-boundary';
import type { SlotFailureKind, SlotFrame } from './slot-status';
import { useRegistrySnapshot, useSlotRuntime } from './slot-runtime';

interface IsolatedSlotProps {
  /** The component name the slot asks for. */
  component: string;
  /** The slot's own props (without the host's context props): what its schema describes. */
  props: JsonObject;
  location: string;
  /** Its position at the location, for the slot status. */
  index: number;
  /** What the registry holds under that name, if anything. */
  Component: SlotComponent | undefined;
  /** Renders the resolved component with its props. */
  render(Component: SlotComponent): ReactNode;
  /** Why nothing renders when the registry holds no component under the name. */
  missing: { kind: SlotFailureKind; message: string };
  className: string;
  /** Marks the form slots' wrapper (`data-form-slot`). */
  formSlot?: boolean;
}

/**
 * Development: whether the slot's props match its component's schema. `undefined` while the check runs (the slot
 * waits for it), null when they match, have no schema or nothing checks them (production), else what is wrong.
 */
function usePropsProblem(component: string, props: JsonObject): string | null | undefined {
  const { propsCheck } = useSlotRuntime();
  const key = `${component}\u0000${JSON.stringify(props)}`;
  const [checked, setChecked] = useState<{ key: string; problem: string | null } | null>(null);
  useEffect(() => {
    if (propsCheck === null) return undefined;
    let current = true;
    void propsCheck.check(component, props).then((problem) => {
      if (current) setChecked({ key, problem });
    });
    return () => {
      current = false;
    };
    // `key` stands for the props' content: a new object with the same props is not checked again.
  }, [propsCheck, component, key]);
  if (propsCheck === null) return null;
  return checked?.key === key ? checked.problem : undefined;
}

/** Fails the slot where it renders, for its boundary to catch and record. */
function FailSlot({ kind, message }: { kind: SlotFailureKind; message: string }): never {
  throw new SlotFailureError(kind, message);
}

/**
 * Rendered after the slot's component inside its Suspense: React attaches it only once the component is on screen,
 * which is the moment the slot is rendered. Hidden, so it takes no room.
 */
function RenderedMark({ frame }: { frame: SlotFrame }) {
  const rendered = useCallback(() => frame.status.rendered(frame.handle, frame.place), [frame]);
  return <span hidden ref={rendered} />;
}

const LOADING = <span className="slot-loading" aria-busy="true" />;

/**
 * How long a slot may stay loading before it is given up as timed out: a component that suspends forever (a lazy
 * import or a `use` of a promise that never settles) fails no boundary, so without a bound it would show a spinner
 * for good and count as nothing, and a canary doing so to every visitor would never be rolled back. Above the
 * loader's own worst case (two manifest and two entry attempts, reliability-plugin.ts), which fails it first.
 */
export const SLOT_LOAD_TIMEOUT_MS = 20_000;

/**
 * A suspended slot's spinner, which fails the slot as timed out once it has shown for {@link SLOT_LOAD_TIMEOUT_MS}.
 * The fallback of the slot's Suspense, so the slot's boundary catches it, and a retry or a new component (which
 * mount a new one) starts the time again.
 */
function LoadingUntilTimeout({ component }: { component: string }) {
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setExpired(true), SLOT_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, []);
  if (expired) throw new SlotFailureError('render-error', HOST_MESSAGES.slotTimedOut(component, SLOT_LOAD_TIMEOUT_MS));
  return LOADING;
}

/**
 * One slot, isolated from its neighbours: wrapper (`data-slot-component`) > error boundary > Suspense > the
 * registered (usually lazy) component. The slot's state goes to the slot status, each transition written where it
 * is seen: the wrapper joins and leaves the page, the mark after the component says it rendered, the boundary
 * records what it catches (a throw, a missing component, props that fail their schema in development). A failure
 * marks the wrapper (hidden in production); a later registration under the same name clears it.
 */
function IsolatedSlot({
  component,
  props,
  location,
  index,
  Component,
  render,
  missing,
  className,
  formSlot,
}: IsolatedSlotProps) {
  const runtime = useSlotRuntime();
  const { slotStatus: status } = runtime;
  const remote = runtime.remoteOf(component);
  const [handle] = useState(() => status.handle());
  const frame = useMemo<SlotFrame>(
    () => ({ status, handle, place: { page: window.location.pathname, location, index, component, remote } }),
    [status, handle, location, index, component, remote],
  );
  const slot = useSyncExternalStore(
    status.subscribe,
    () => status.entryOf(handle),
    () => status.entryOf(handle),
  );
  const failed = slot?.state === 'failed' ? (slot.failure?.kind ?? null) : null;
  const joinPage = useCallback(() => frame.status.enter(frame.handle, frame.place), [frame]);
  const propsProblem = usePropsProblem(component, props);

  return (
    <div
      ref={joinPage}
      className={className}
      data-form-slot={formSlot ? component : undefined}
      data-slot-component={component}
      data-slot-failed={failed ?? undefined}
      hidden={failed !== null && !runtime.showFailures}
    >
      <SlotErrorBoundary frame={frame} resetKey={Component}>
        {!Component ? (
          <FailSlot kind={missing.kind} message={missing.message} />
        ) : propsProblem === undefined ? (
          LOADING
        ) : propsProblem !== null ? (
          <FailSlot kind="props-invalid" message={HOST_MESSAGES.invalidProps(component, propsProblem)} />
        ) : (
          <Suspense fallback={<LoadingUntilTimeout component={component} />}>
            {render(Component)}
            <RenderedMark frame={frame} />
          </Suspense>
        )}
      </SlotErrorBoundary>
    </div>
  );
}

export interface SlotItemProps {
  entry: SlotEntry;
  location: string;
  /** Its position at the location (or among its parent's content); 0 by default. */
  index?: number;
  /** Context props (resource actions) laid over the slot's own props. */
  context?: ResourceActionContext | undefined;
}

/**
 * A slot at a location, resolved through the SlotComponentRegistry, with the slot's props and its content as
 * children.
 */
export function SlotItem({ entry, location, index = 0, context }: SlotItemProps) {
  const runtime = useSlotRuntime();
  const slotComponents = useRegistrySnapshot(runtime.slotRegistry);
  return (
    <IsolatedSlot
      component={entry.component}
      props={entry.props}
      location={location}
      index={index}
      Component={slotComponents[entry.component]}
      render={(Component) => renderComponent(Component, entry, location, context)}
      missing={{ kind: 'unknown-component', message: HOST_MESSAGES.unknownComponent(entry.component) }}
      className="slot-item"
    />
  );
}

function renderComponent(
  Component: SlotComponent,
  entry: SlotEntry,
  location: string,
  context: ResourceActionContext | undefined,
): ReactNode {
  // The host's context wins over same-named slot props: the record shown is the one on the page.
  const props: Record<string, unknown> = { ...entry.props, ...context };
  if (entry.content === undefined) return <Component {...props} />;
  return <Component {...props}>{renderSlotContent(entry.content, location, context)}</Component>;
}

/** A slot's content as children: a string is text; a slot or a list of slots render through the same registry. */
function renderSlotContent(
  content: SlotContent,
  location: string,
  context: ResourceActionContext | undefined,
): ReactNode {
  if (typeof content === 'string') return content;
  const entries = Array.isArray(content) ? content : [content];
  return entries.map((child, index) => (
    <SlotItem key={`${index}:${child.component}`} entry={child} location={location} index={index} context={context} />
  ));
}

interface FormSlotElementProps {
  item: FormSlotEntry;
  /** The resource whose form this is. */
  resource: string;
  formContext: FormContext;
}

/**
 * A slot among a resource form's fields, resolved ONLY through the GlobalComponentRegistry (the form components):
 * a component registered in the SlotComponentRegistry alone does not render in a form, and development says why.
 * Props: the slot's own, then `resource` and `formContext` (the host's win, so a slot always gets the real form).
 */
export function FormSlot({ item, resource, formContext }: FormSlotElementProps) {
  const runtime = useSlotRuntime();
  const formComponents = useRegistrySnapshot(runtime.globalRegistry);
  const slotComponents = useRegistrySnapshot(runtime.slotRegistry);
  return (
    <IsolatedSlot
      component={item.component}
      props={item.props}
      location={`form:${resource}`}
      index={0}
      Component={formComponents[item.component]}
      render={(Component) => <Component {...item.props} resource={resource} formContext={formContext} />}
      missing={
        item.component in slotComponents
          ? { kind: 'not-a-form-component', message: HOST_MESSAGES.notAFormComponent(item.component) }
          : { kind: 'unknown-component', message: HOST_MESSAGES.unknownFormComponent(item.component) }
      }
      className="form-slot slot-item"
      formSlot
    />
  );
}
