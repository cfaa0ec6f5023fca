import { Suspense, useMemo, useState } from 'react';
import type { FormContext, FormSlotItem } from '../../shared';
import type { SlotComponent } from './component-registry';
import { CORE_MESSAGES } from '../loader/messages';
import { SlotErrorBoundary } from './slot-error-boundary';
import type { SlotFailureKind } from './slot-failure-reporter';
import { SlotFailureView } from './slot-failure-view';
import { SlotFrameContext, type SlotFrame } from './slot-frame';
import { useRegistrySnapshot, useSlotRuntime } from './slot-runtime';

export interface FormSlotItemProps {
  item: FormSlotItem;
  /** The resource whose form this is. */
  resource: string;
  formContext: FormContext;
}

/**
 * A slot among a resource form's fields. Resolved ONLY through the GlobalComponentRegistry (spec 2.6); a component
 * registered in the SlotComponentRegistry alone does not render here. Props: the slot's own, then `resource` and
 * `formContext` (the host's win, so a slot always gets the real form).
 */
export function FormSlotItem({ item, resource, formContext }: FormSlotItemProps) {
  const runtime = useSlotRuntime();
  const globalComponents = useRegistrySnapshot(runtime.globalRegistry);
  const slotComponents = useRegistrySnapshot(runtime.slotRegistry);
  const Component = globalComponents[item.component];
  const remote = runtime.remoteOf(item.component);
  const location = `form:${resource}`;
  const [failure, setFailure] = useState<{ kind: SlotFailureKind; of: SlotComponent | undefined } | null>(null);
  const failed = failure !== null && failure.of === Component ? failure.kind : null;

  const frame = useMemo<SlotFrame>(
    () => ({ location, component: item.component, remote, markFailed: (kind) => setFailure({ kind, of: Component }) }),
    [location, item.component, remote, Component],
  );

  let body;
  if (Component) {
    body = (
      <Suspense fallback={<span className="slot-loading" aria-busy="true" />}>
        <Component {...item.props} resource={resource} formContext={formContext} />
      </Suspense>
    );
  } else if (item.component in slotComponents) {
    body = <SlotFailureView kind="not-a-form-component" message={CORE_MESSAGES.notAFormComponent(item.component)} />;
  } else {
    body = <SlotFailureView kind="unknown-component" message={CORE_MESSAGES.unknownFormComponent(item.component)} />;
  }

  return (
    <div
      className="form-slot slot-item"
      data-form-slot={item.component}
      data-slot-component={item.component}
      data-slot-failed={failed ?? undefined}
      hidden={failed !== null && !runtime.showFailures}
    >
      <SlotFrameContext.Provider value={frame}>
        <SlotErrorBoundary>{body}</SlotErrorBoundary>
      </SlotFrameContext.Provider>
    </div>
  );
}
