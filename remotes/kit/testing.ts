/**
 * Slot tests for Jest (`@slots-platform/remote-kit/testing`, in a DOM test environment such as jsdom): a component
 * rendered as a slot of a location, through the product's own renderer ({@link emulatedSlot}): its props checked
 * against the schema declared in remote.ts, the location's context given, the error boundary in place. A wrong
 * prop, a missing context or a throwing component fails the test with the message the product would show.
 */
import { act, createElement, useState, version as reactVersion } from 'react';
import { version as reactDomVersion } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { JsonObject, JsonValue } from '../../shared';
import { reportCaughtError } from '../../host/core/slot-boundary';
import type { ConnectableModules } from '../../host/core/connect-registries';
import type { SlotStatusEntry } from '../../host/core/slot-status';
import type { LoadedModule } from '../../host/loader/remote-module-loader';
import type { RemoteDeclaration } from './define-remote';
import {
  FORM_LOCATION,
  emulatedRuntime,
  emulatedSlot,
  initialFormValues,
  providedComponents,
  SAMPLE_CONTEXT,
  type EmulatedContext,
  type EmulatedLocation,
} from './emulated-slot';
import { sharedReactMismatch } from './shared-react';

export { FORM_LOCATION, SAMPLE_CONTEXT, type EmulatedContext, type EmulatedLocation } from './emulated-slot';

/**
 * React's `act`, of the React the slot renders with (the project's): a test wraps in it what makes a slot update, a
 * click or a change, so the update is applied before the test's next line (`act(() => button.click())`, or `await
 * act(async () => …)` for one that awaits). Without it, {@link renderSlot} having told React that it runs in a test,
 * React warns that "An update to SlotTestForm inside a test was not wrapped in act(...)" and the form's values and the
 * page are still as they were on the next line (or names your component, for its own state).
 */
export { act };

export interface RenderSlotOptions {
  /** A location of the product (`dashboard-before-cards`), or `form` for a form component among a form's fields. */
  location: EmulatedLocation;
  /** The slot's own props, as the product's configuration gives them: checked against the component's schema. */
  props: JsonObject;
  /** The resource, record and form mode around the slot; {@link SAMPLE_CONTEXT} by default. */
  context?: Partial<EmulatedContext>;
  /** How long the slot may stay loading; 5 s by default. */
  timeoutMs?: number;
}

export interface RenderedSlot {
  /** The location's wrapper (or the form slot), as on the product's page. */
  container: HTMLElement;
  /** The form's values now (`form` location): what the component wrote with `formContext.setValue` included. */
  formValues(): Readonly<Record<string, JsonValue>>;
  unmount(): void;
}

/**
 * The slot did not render: why (`props-invalid`, `render-error`, `not-a-form-component`, …) and the message. Also
 * `react-version`: the project's React is not the one the product renders with, so no slot test can pass.
 */
export class SlotTestFailure extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
    this.name = 'SlotTestFailure';
  }
}

/** The component a test hands over: the component itself or its module (`import * as module from './Hello'`). */
type ComponentOrModule = unknown;

/** A module loader holding the one module under test: the product's registries load it as they load any. */
function modulesOf(
  remote: RemoteDeclaration,
  component: string,
  implementation: ComponentOrModule,
): ConnectableModules {
  const module = typeof implementation === 'function' ? { [component]: implementation } : implementation;
  const provided = providedComponents(remote).filter((item) => item.component === component);
  const listeners = new Set<(loaded: LoadedModule) => void>();
  return {
    provided: () => provided,
    onProvide: () => () => undefined,
    onLoad(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async load() {
      for (const item of provided) for (const listener of listeners) listener({ ...item, module });
      return module;
    },
  };
}

/**
 * What a form component that failed rendering outside a form is told: it was given no `formContext` there (a
 * placement the product's slot check only warns of), which reading `formContext.values` fails on.
 */
function outsideFormHint(remote: RemoteDeclaration, component: string, location: string, kind: string): string {
  if (kind !== 'render-error' || location === FORM_LOCATION || !remote.formComponents.includes(component)) return '';
  return (
    ` (${component} is a form component: outside a form, location "${location}" included, it is given no ` +
    'formContext, and no resource but at the record actions (resource-page-actions, resource-edit-actions). To be ' +
    'placed there too, it reads them as optional, its props typed PropsOf<…> & Partial<Pick<FormSlotProps, ' +
    `'resource' | 'formContext'>>; in a form, test it at location "${FORM_LOCATION}".)`
  );
}

/**
 * Renders `component` of `remote` (the default export of remote.ts) at `options.location`; resolves once it has
 * rendered, rejects with a {@link SlotTestFailure} once its boundary caught a failure. Rejects before rendering when
 * the React the test runs on (the project's) is not in the range the host shares, as the build fails then: a test
 * passing on that React would say nothing of the product, which renders with its own.
 */
export async function renderSlot(
  remote: RemoteDeclaration,
  component: string,
  implementation: ComponentOrModule,
  options: RenderSlotOptions,
): Promise<RenderedSlot> {
  const mismatch = sharedReactMismatch({ react: reactVersion, 'react-dom': reactDomVersion });
  if (mismatch !== undefined) throw new SlotTestFailure('react-version', mismatch);
  if (!remote.components.includes(component)) {
    throw new SlotTestFailure(
      'unknown-component',
      `${component} is not declared in remote.ts (${remote.components.join(', ') || 'no components'}).`,
    );
  }
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const context = { ...SAMPLE_CONTEXT, ...options.context };
  // The failure is what this helper reports: the product's console log of it would only repeat it.
  const runtime = emulatedRuntime(remote, modulesOf(remote, component, implementation), () => undefined);
  let values: Readonly<Record<string, JsonValue>> = initialFormValues(context);

  /** Holds the form's values around the slot (what React's warning of an update outside `act` names). */
  function SlotTestForm() {
    const [formValues, setFormValues] = useState(values);
    values = formValues;
    const form = {
      values: formValues,
      errors: {},
      setValue: (name: string, value: JsonValue) => setFormValues((current) => ({ ...current, [name]: value })),
    };
    return emulatedSlot({ runtime, component, location: options.location, props: options.props, context, form });
  }

  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container, { onCaughtError: reportCaughtError });
  const unmount = () => {
    act(() => root.unmount());
    container.remove();
  };
  await act(async () => root.render(createElement(SlotTestForm)));

  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  let slot: SlotStatusEntry | undefined;
  for (;;) {
    slot = runtime.slotStatus?.snapshot().find((entry) => entry.component === component);
    if (slot?.state === 'rendered' || slot?.state === 'failed') break;
    if (Date.now() > deadline) {
      unmount();
      throw new SlotTestFailure('timeout', `${component} at ${options.location} was still loading after the timeout.`);
    }
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
  }
  if (slot.state === 'failed') {
    unmount();
    const kind = slot.failure?.kind ?? 'render-error';
    const message = `${component} at ${options.location} failed (${kind}): ${slot.failure?.message}`;
    throw new SlotTestFailure(kind, message + outsideFormHint(remote, component, options.location, kind));
  }
  return { container, formValues: () => values, unmount };
}
