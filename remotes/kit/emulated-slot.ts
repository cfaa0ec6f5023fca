/**
 * One of a remote's components rendered as the product renders a slot, without the product: the host's own slot
 * renderer (host/core, compiled into the kit's package), its error boundary, its loading path (a lazy component per
 * name, registered through `connectRegistries`) and its development check of the props against the component's
 * schema (in the server's words), with the context the product gives at the chosen location. The host emulator of
 * `slots-remote dev` and the slot tests of `./testing` both render through here. Browser-safe.
 */
import { createElement, type ReactElement } from 'react';
import {
  SlotLocation,
  type FormContext,
  type FormMode,
  type JsonObject,
  type JsonValue,
  type ResourceActionContext,
  type RemoteDescriptorFile,
  type ResourceRecord,
  type SlotLocationValue,
} from '../../shared';
import { slotContextAt } from '../../host/core/app-slot-renderer';
import { ComponentRegistry } from '../../host/core/component-registry';
import { connectRegistries, type ConnectableModules } from '../../host/core/connect-registries';
import type { SlotFailureLogger } from '../../host/core/log-slot-failures';
import { FormSlot, SlotItem } from '../../host/core/slot-item';
import { createSlotStatus, SlotRuntimeProvider, type SlotRuntime } from '../../host/core/slot-runtime';
import type { ProvidedComponent } from '../../host/loader/remote-module-loader';
import { emulatedPropsCheck } from './emulated-props-check';

/** A resource form's fields: where the product places the form components (`formComponents` in remote.ts). */
export const FORM_LOCATION = 'form';
export type EmulatedLocation = SlotLocationValue | typeof FORM_LOCATION;

/** Every place a slot can be emulated at: the product's locations, then a resource form. */
export function emulatedLocations(): EmulatedLocation[] {
  return [...SlotLocation.cases().map((location) => location.value), FORM_LOCATION];
}

/** What the product gives around a slot: the record of a resource page, and the resource form it may sit in. */
export interface EmulatedContext {
  resource: string;
  record: ResourceRecord;
  formMode: FormMode;
}

/** A record as the product's demo resources have them: what an action or form component sees unless told else. */
export const SAMPLE_CONTEXT: EmulatedContext = {
  resource: 'articles',
  record: { id: 1, title: 'First article', label: 'First article', body: 'Hello from the emulated product.' },
  formMode: 'edit',
};

/** The form values a form slot starts with: the record's fields, as the product's edit form does. */
export function initialFormValues(context: EmulatedContext): Record<string, JsonValue> {
  const values: Record<string, JsonValue> = {};
  for (const [field, value] of Object.entries(context.record)) {
    if (field !== 'id' && value !== undefined) values[field] = value;
  }
  return values;
}

/** What the emulated host knows of the remote: its descriptor (slots-remote.json, or remote.ts's declaration). */
export type EmulatedRemote = Pick<RemoteDescriptorFile, 'name' | 'components' | 'formComponents' | 'props'>;

/** The components of the remote as the product's module loader provides them. */
export function providedComponents(remote: EmulatedRemote): ProvidedComponent[] {
  return remote.components.map((component) => ({
    remote: remote.name,
    component,
    formComponent: remote.formComponents.includes(component),
  }));
}

/**
 * The runtime of an emulated page: registries filled through the product's loading path from `modules` (the
 * product's own module loader in the emulator, the test's modules in slot tests), the slot status with a failure
 * log, failures shown (as a development product does) and the props checked against the remote's own schemas.
 */
export function emulatedRuntime(
  remote: EmulatedRemote,
  modules: ConnectableModules,
  log?: SlotFailureLogger,
): Partial<SlotRuntime> {
  const slotRegistry = new ComponentRegistry('SlotComponentRegistry');
  const globalRegistry = new ComponentRegistry('GlobalComponentRegistry');
  connectRegistries(modules, { slotRegistry, globalRegistry });
  return {
    slotRegistry,
    globalRegistry,
    remoteOf: (component) => (remote.components.includes(component) ? remote.name : null),
    ...createSlotStatus(log ? { log } : {}),
    showFailures: true,
    // The product's own hint speaks of its server, which the emulator has none of.
    failureHint: 'Shown in the emulator; in the product, only while its server runs in development.',
    // The server's words for the props it would refuse (`props.customer is required (string)`), not the validator's.
    propsCheck: emulatedPropsCheck(remote.props ?? {}),
  };
}

/** The live form a form slot sits in: its values, and what changes one. */
export interface EmulatedForm {
  values: Readonly<Record<string, JsonValue>>;
  errors: Readonly<Record<string, string>>;
  setValue(name: string, value: JsonValue): void;
}

export interface EmulatedSlotProps {
  runtime: Partial<SlotRuntime>;
  component: string;
  location: EmulatedLocation;
  props: JsonObject;
  context: EmulatedContext;
  /** Required at {@link FORM_LOCATION}. */
  form?: EmulatedForm;
}

/**
 * The slot in its location's wrapper, as the product's page has it: `data-slot-location` around the slot item,
 * or the form slot among a resource form's fields.
 */
export function emulatedSlot({ runtime, component, location, props, context, form }: EmulatedSlotProps): ReactElement {
  let slot: ReactElement;
  if (location === FORM_LOCATION) {
    if (!form) throw new Error('A form slot needs the form it sits in.');
    const formContext: FormContext = { mode: context.formMode, ...form };
    slot = createElement(FormSlot, {
      item: { type: 'slot', component, props },
      resource: context.resource,
      formContext,
    });
  } else {
    const slotLocation = SlotLocation.from(location);
    const actionContext: ResourceActionContext = {
      resource: context.resource,
      resourceId: context.record.id,
      record: context.record,
    };
    slot = createElement(
      'div',
      { className: `slot-location slot-location--${location}`, 'data-slot-location': location },
      createElement(SlotItem, {
        entry: { component, props },
        location,
        context: slotContextAt(slotLocation, actionContext),
      }),
    );
  }
  return createElement(SlotRuntimeProvider, { runtime }, slot);
}
