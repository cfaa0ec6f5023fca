import { Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import type {
  FormContext,
  FormSlotItem as FormSlotItemData,
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
  location: string;
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
 * One slot, isolated from its neighbours: wrapper (`data-slot-component`) > error boundary > Suspense > the
 * registered (usually lazy) component. A failure marks the wrapper (hidden in production); the mark is remembered
 * per component, so a later registration under the same name clears it.
 */
function IsolatedSlot({
  component,
  location,
  Component,
  render,
  missing,
  className,
  formSlot,
  onFailedChange,
}: IsolatedSlotProps) {
  const runtime = useSlotRuntime();
  const remote = runtime.remoteOf(component);
  const [failure, setFailure] = useState<{ kind: SlotFailureKind; of: SlotComponent | undefined } | null>(null);
  const failed = failure !== null && failure.of === Component ? failure.kind : null;
  const [owner] = useState(() => ({}));
  const { failedSlots } = runtime;

  useEffect(() => {
    failedSlots.set(owner, failed === null ? null : { location, component, remote, kind: failed });
    return () => failedSlots.set(owner, null);
  }, [failedSlots, owner, failed, location, component, remote]);

  useEffect(() => {
    onFailedChange?.(failed !== null);
  }, [onFailedChange, failed]);

  const frame = useMemo<SlotFrame>(
    () => ({ location, component, remote, markFailed: (kind) => setFailure({ kind, of: Component }) }),
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
          {Component ? (
            <Suspense fallback={<span className="slot-loading" aria-busy="true" />}>{render(Component)}</Suspense>
          ) : (
            <SlotFailureView kind={missing.kind} message={missing.message} />
          )}
        </SlotErrorBoundary>
      </SlotFrameContext.Provider>
    </div>
  );
}

export interface SlotItemProps {
  entry: SlotEntry;
  location: string;
  /** Context props (resource actions) laid over the slot's own props. */
  context?: ResourceActionContext | undefined;
  /** Told whether the slot has failed, whenever that changes (a location's fallback waits on it). */
  onFailedChange?: ((failed: boolean) => void) | undefined;
}

/**
 * A slot at a location, resolved through the SlotComponentRegistry, with the slot's props and its content as
 * children.
 */
export function SlotItem({ entry, location, context, onFailedChange }: SlotItemProps) {
  const runtime = useSlotRuntime();
  const slotComponents = useRegistrySnapshot(runtime.slotRegistry);
  return (
    <IsolatedSlot
      component={entry.component}
      location={location}
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
    <SlotItem key={`${index}:${child.component}`} entry={child} location={location} context={context} />
  ));
}

export interface FormSlotItemProps {
  item: FormSlotItemData;
  /** The resource whose form this is. */
  resource: string;
  formContext: FormContext;
}

/**
 * A slot among a resource form's fields, resolved ONLY through the GlobalComponentRegistry (the form components):
 * a component registered in the SlotComponentRegistry alone does not render in a form, and development says why.
 * Props: the slot's own, then `resource` and `formContext` (the host's win, so a slot always gets the real form).
 */
export function FormSlotItem({ item, resource, formContext }: FormSlotItemProps) {
  const runtime = useSlotRuntime();
  const formComponents = useRegistrySnapshot(runtime.globalRegistry);
  const slotComponents = useRegistrySnapshot(runtime.slotRegistry);
  return (
    <IsolatedSlot
      component={item.component}
      location={`form:${resource}`}
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
