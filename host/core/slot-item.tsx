import { Suspense, useMemo, useState, type ReactNode } from 'react';
import type { ResourceActionContext, SlotContent, SlotEntry } from '../../shared';
import type { SlotComponent } from './component-registry';
import { CORE_MESSAGES } from '../loader/messages';
import { SlotErrorBoundary } from './slot-error-boundary';
import type { SlotFailureKind } from './slot-failure-reporter';
import { SlotFailureView } from './slot-failure-view';
import { SlotFrameContext, type SlotFrame } from './slot-frame';
import { useRegistrySnapshot, useSlotRuntime } from './slot-runtime';

export interface SlotItemProps {
  entry: SlotEntry;
  location: string;
  /** Context props (resource actions) laid over the slot's own props. */
  context?: ResourceActionContext | undefined;
}

/**
 * One slot, isolated from its neighbours: wrapper (`data-slot-component`) > error boundary > Suspense > the
 * registered (usually lazy) component, with the slot's props and its content as children.
 */
export function SlotItem({ entry, location, context }: SlotItemProps) {
  const runtime = useSlotRuntime();
  const registry = useRegistrySnapshot(runtime.slotRegistry);
  const Component = registry[entry.component];
  const remote = runtime.remoteOf(entry.component);
  // Remembered per component, so a later registration under the same name clears an earlier failure.
  const [failure, setFailure] = useState<{ kind: SlotFailureKind; of: SlotComponent | undefined } | null>(null);
  const failed = failure !== null && failure.of === Component ? failure.kind : null;

  const frame = useMemo<SlotFrame>(
    () => ({
      location,
      component: entry.component,
      remote,
      markFailed: (kind) => setFailure({ kind, of: Component }),
    }),
    [location, entry.component, remote, Component],
  );

  return (
    <div
      className="slot-item"
      data-slot-component={entry.component}
      data-slot-failed={failed ?? undefined}
      hidden={failed !== null && !runtime.showFailures}
    >
      <SlotFrameContext.Provider value={frame}>
        <SlotErrorBoundary>
          {Component ? (
            <Suspense fallback={<span className="slot-loading" aria-busy="true" />}>
              {renderComponent(Component, entry, location, context)}
            </Suspense>
          ) : (
            <SlotFailureView kind="unknown-component" message={CORE_MESSAGES.unknownComponent(entry.component)} />
          )}
        </SlotErrorBoundary>
      </SlotFrameContext.Provider>
    </div>
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
export function renderSlotContent(
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
