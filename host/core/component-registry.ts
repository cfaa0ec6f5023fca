import type { ComponentType, JSXElementConstructor } from 'react';
import { COMPONENT_NAME_PATTERN } from '../../shared';
import { ExternalStore } from '../loader/external-store';

/**
 * Any React component, whatever its props: slot props come from server data, so the compiler cannot match them to
 * a component's declared props. (`never` accepts function, class, memo and lazy components alike.)
 */
export type RegistrableComponent = JSXElementConstructor<never>;

/** How the host renders a registered component: with the slot's props, known only at run time. */
export type SlotComponent = ComponentType<Record<string, unknown>>;

/** A frozen name -> component view. Readers get one; only the registry's methods make a new one. */
export type RegistrySnapshot = Readonly<Record<string, SlotComponent | undefined>>;

export class InvalidRegistrationError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRegistrationError';
  }
}

/** True for what React can render as a component: functions and classes, memo, lazy and forwardRef objects. */
export function isReactComponent(value: unknown): boolean {
  if (typeof value === 'function') return true;
  // memo, lazy and forwardRef components are objects tagged by React.
  return value !== null && typeof value === 'object' && '$$typeof' in value;
}

function freeze(entries: Iterable<[string, SlotComponent]>): RegistrySnapshot {
  const snapshot: Record<string, SlotComponent> = Object.create(null) as Record<string, SlotComponent>;
  for (const [name, component] of entries) snapshot[name] = component;
  return Object.freeze(snapshot);
}

/**
 * Name -> component registry. Copy-on-write: every change makes a new frozen snapshot and notifies subscribers, so
 * React can read it with useSyncExternalStore and a reader never sees a half-applied change.
 */
export class ComponentRegistry extends ExternalStore<RegistrySnapshot> {
  /** @param label names the registry in error messages */
  constructor(readonly label: string) {
    super(freeze([]));
  }

  /** Registers a component under a name, replacing any earlier registration of that name. */
  register(name: string, component: RegistrableComponent): void {
    this.registerMany({ [name]: component });
  }

  /** Registers several components at once (one snapshot, one notification). */
  registerMany(components: Readonly<Record<string, RegistrableComponent>>): void {
    const additions = Object.entries(components);
    for (const [name, component] of additions) this.check(name, component);
    if (additions.length === 0) return;
    this.replace([
      ...Object.entries(this.snapshot()).filter((entry): entry is [string, SlotComponent] => entry[1] !== undefined),
      ...additions.map(([name, component]): [string, SlotComponent] => [name, component as unknown as SlotComponent]),
    ]);
  }

  /** The component registered under the name, or undefined. */
  get(name: string): SlotComponent | undefined {
    return Object.hasOwn(this.snapshot(), name) ? this.snapshot()[name] : undefined;
  }

  has(name: string): boolean {
    return Object.hasOwn(this.snapshot(), name);
  }

  unregister(name: string): void {
    if (!this.has(name)) return;
    this.replace(
      Object.entries(this.snapshot()).filter(
        (entry): entry is [string, SlotComponent] => entry[0] !== name && entry[1] !== undefined,
      ),
    );
  }

  clear(): void {
    if (Object.keys(this.snapshot()).length === 0) return;
    this.replace([]);
  }

  /** The registered names, in registration order. */
  names(): string[] {
    return Object.keys(this.snapshot());
  }

  private check(name: string, component: unknown): void {
    if (typeof name !== 'string' || !COMPONENT_NAME_PATTERN.test(name)) {
      throw new InvalidRegistrationError(
        `${this.label}: component name must match ${COMPONENT_NAME_PATTERN}, got ${JSON.stringify(name)}.`,
      );
    }
    if (!isReactComponent(component)) {
      throw new InvalidRegistrationError(
        `${this.label}: "${name}" must be a React component (a function, class, memo or lazy component), got ${
          component === null ? 'null' : typeof component
        }.`,
      );
    }
  }

  private replace(entries: Iterable<[string, SlotComponent]>): void {
    this.publish(freeze(entries));
  }
}

/**
 * The registry slots are resolved through: the name in a slot's `component` field must be registered here under
 * the same name. The host fills it at start-up with a lazy component for every component of every remote.
 */
export const SlotComponentRegistry = new ComponentRegistry('SlotComponentRegistry');

/**
 * The host's global component registration, which holds the form components: the only registry a slot inside a
 * resource form is resolved through. Separate from the SlotComponentRegistry on purpose, so a page slot component
 * never lands in a form by accident; a remote declares which of its components are form components.
 */
export const GlobalComponentRegistry = new ComponentRegistry('GlobalComponentRegistry');
