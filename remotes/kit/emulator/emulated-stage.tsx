import { useState } from 'react';
import { locationMedia, SlotLocation, type JsonObject, type JsonValue } from '../../../shared';
import type { SlotRuntime } from '../../../host/core/slot-runtime';
import {
  emulatedSlot,
  FORM_LOCATION,
  initialFormValues,
  type EmulatedContext,
  type EmulatedLocation,
} from '../emulated-slot';

export interface EmulatedStageProps {
  runtime: Partial<SlotRuntime>;
  component: string;
  location: EmulatedLocation;
  props: JsonObject;
  context: EmulatedContext;
  signedIn: boolean;
  wide: boolean;
}

/**
 * Why the product would not render the location for this visitor at this width, or null: a protected location is
 * never served to a visitor who is signed out, and the sign-in sidebar is rendered only on wide screens.
 */
export function notShownBecause(location: EmulatedLocation, signedIn: boolean, wide: boolean): string | null {
  if (location === FORM_LOCATION) {
    return signedIn ? null : 'Resource forms are behind sign-in: the product shows them to signed-in users only.';
  }
  const slotLocation = SlotLocation.from(location);
  if (!signedIn && !slotLocation.isPublic()) {
    return `${location} is a protected location: the product renders it for signed-in users only.`;
  }
  const media = locationMedia(slotLocation);
  if (!wide && media !== null) return `${location} is rendered only under ${media} (the sign-in sidebar's rule).`;
  return null;
}

/**
 * A resource form emulated around a form slot: an input per field of the record, the slot among them with a live
 * form context. The fields and the slot read and write the same values.
 */
function EmulatedForm({ runtime, component, props, context }: Omit<EmulatedStageProps, 'signedIn' | 'wide'>) {
  const [values, setValues] = useState<Readonly<Record<string, JsonValue>>>(() => initialFormValues(context));
  const setValue = (name: string, value: JsonValue) => setValues((current) => ({ ...current, [name]: value }));
  const form = { values, errors: {}, setValue };
  return (
    <form className="emulator__form" data-emulated-form={context.resource} onSubmit={(event) => event.preventDefault()}>
      {Object.entries(values).map(([name, value]) => (
        <label key={name} className="emulator__field">
          <span>{name}</span>
          <input
            name={name}
            value={typeof value === 'string' ? value : JSON.stringify(value)}
            onChange={(event) => setValue(name, event.target.value)}
          />
        </label>
      ))}
      {emulatedSlot({ runtime, component, location: FORM_LOCATION, props, context, form })}
    </form>
  );
}

/** The slot where the product would render it, at the width chosen; or why the product would not render it. */
export function EmulatedStage(stage: EmulatedStageProps) {
  const { runtime, component, location, props, context, signedIn, wide } = stage;
  const reason = notShownBecause(location, signedIn, wide);
  // A new slot for other props, as a page load of the product would give: a boundary that caught a failure (props
  // that broke the schema) shows it until its slot is replaced.
  const key = JSON.stringify([location, component, props, context]);
  return (
    <main className={`emulator__stage emulator__stage--${wide ? 'wide' : 'narrow'}`} data-emulator-stage>
      {reason !== null ? (
        <p className="emulator__note" data-not-shown>
          {reason}
        </p>
      ) : location === FORM_LOCATION ? (
        <EmulatedForm
          key={key}
          runtime={runtime}
          component={component}
          location={location}
          props={props}
          context={context}
        />
      ) : (
        <div key={key}>{emulatedSlot({ runtime, component, location, props, context })}</div>
      )}
    </main>
  );
}
