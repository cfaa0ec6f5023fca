import { Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
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
import { SlotErrorBoundary, SlotFailureView, SlotFrameContext, type SlotFrame } from './slot-boundary';
import type { SlotFailureKind } from './slot-failure-reporter';
import { useRegistrySnapshot, useSlotRuntime } from './slot-runtime';

interface IsolatedSlotProps {
  /** The component name the slot asks for. */
  component: string;
  /** The slot's own props (without the host's context props): what its schema describes. */
  props: JsonObject;
  location: string;
  /** Its position at the location, for the page's slot record. */
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
  /** Told whether the slot has failed, whenever that changes. */
  onFailedChange?: ((failed: boolean) => void) | undefined;
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

/** Rendered after the slot's component inside its Suspense: committed only once the component has rendered. */
function RenderedSignal({ onRendered }: { onRendered: () => void }) {
  useEffect(onRendered, [onRendered]);
  return null;
}

/**
 * One slot, isolated from its neighbours: wrapper (`data-slot-component`) > error boundary > Suspense > the
 * registered (usually lazy) component. A failure marks the wrapper (hidden in production); the mark is remembered
 * per component, so a later registration under the same name clears it. Its state (loading, loaded, failed and why)
 * goes to the page's slot record; in development its props are checked against its schema before it renders.
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
  onFailedChange,
}: IsolatedSlotProps) {
  const runtime = useSlotRuntime();
  const remote = runtime.remoteOf(component);
  const [failure, setFailure] = useState<{
    kind: SlotFailureKind;
    message: string;
    of: SlotComponent | undefined;
  } | null>(null);
  const failed = failure !== null && failure.of === Component ? failure.kind : null;
  const failedMessage = failed === null ? null : (failure?.message ?? null);
  const [rendered, setRendered] = useState<SlotComponent | null>(null);
  const loaded = Component !== undefined && rendered === Component && failed === null;
  const onRendered = useCallback(() => setRendered(() => Component ?? null), [Component]);
  const propsProblem = usePropsProblem(component, props);
  const [owner] = useState(() => ({}));
  const { failedSlots, pageSlots } = runtime;

  useEffect(() => {
    failedSlots.set(owner, failed === null ? null : { location, component, remote, kind: failed });
    return () => failedSlots.set(owner, null);
  }, [failedSlots, owner, failed, location, component, remote]);

  useEffect(() => {
    pageSlots.set(window.location.pathname, {
      location,
      index,
      component,
      remote,
      state: failed !== null ? 'failed' : loaded ? 'loaded' : 'loading',
      ...(failed !== null && failedMessage !== null ? { reason: failed, detail: failedMessage } : {}),
    });
  }, [pageSlots, location, index, component, remote, failed, failedMessage, loaded]);

  useEffect(() => {
    onFailedChange?.(failed !== null);
  }, [onFailedChange, failed]);

  const frame = useMemo<SlotFrame>(
    () => ({
      location,
      component,
      remote,
      markFailed: (kind, message) => setFailure({ kind, message, of: Component }),
    }),
    [location, component, remote, Component],
  );

  return (
    <div
      className={className}
      data-form-slot={formSlot ? component : undefined}
      data-slot-component={component}
      data-slot-failed={failed ?? undefined}
      hidden={failed !== null && !runtime.showFailures}
    >
      <SlotFrameContext.Provider value={frame}>
        <SlotErrorBoundary>
          {!Component ? (
            <SlotFailureView kind={missing.kind} message={missing.message} />
          ) : propsProblem === undefined ? (
            <span className="slot-loading" aria-busy="true" />
          ) : propsProblem !== null ? (
            <SlotFailureView kind="props-invalid" message={HOST_MESSAGES.invalidProps(component, propsProblem)} />
          ) : (
            <Suspense fallback={<span className="slot-loading" aria-busy="true" />}>
              {render(Component)}
              <RenderedSignal onRendered={onRendered} />
            </Suspense>
          )}
        </SlotErrorBoundary>
      </SlotFrameContext.Provider>
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
  /** Told whether the slot has failed, whenever that changes (a location's fallback waits on it). */
  onFailedChange?: ((failed: boolean) => void) | undefined;
}

/**
 * A slot at a location, resolved through the SlotComponentRegistry, with the slot's props and its content as
 * children.
 */
export function SlotItem({ entry, location, index = 0, context, onFailedChange }: SlotItemProps) {
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
      onFailedChange={onFailedChange}
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
