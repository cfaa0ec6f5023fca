import { lazy, memo } from 'react';
import {
  ComponentRegistry,
  GlobalComponentRegistry,
  InvalidRegistrationError,
  SlotComponentRegistry,
} from './component-registry';

function Alpha({ text }: { text: string }) {
  return <p>{text}</p>;
}
function Beta() {
  return <p>beta</p>;
}

describe('ComponentRegistry', () => {
  let registry: ComponentRegistry;
  beforeEach(() => {
    registry = new ComponentRegistry('TestRegistry');
  });

  it('registers, gets, tells and unregisters components by name', () => {
    expect(registry.get('Alpha')).toBeUndefined();
    expect(registry.has('Alpha')).toBe(false);
    registry.register('Alpha', Alpha);
    expect(registry.get('Alpha')).toBe(Alpha);
    expect(registry.has('Alpha')).toBe(true);
    registry.unregister('Alpha');
    expect(registry.get('Alpha')).toBeUndefined();
    expect(registry.has('Alpha')).toBe(false);
    registry.unregister('Alpha'); // unknown names are a no-op
  });

  it('registers many at once, accepts memo and lazy components, and clears', () => {
    const Lazy = lazy(async () => ({ default: Beta }));
    const Memo = memo(Beta);
    registry.registerMany({ Alpha, Lazy, Memo });
    expect(registry.names()).toEqual(['Alpha', 'Lazy', 'Memo']);
    expect(registry.get('Lazy')).toBe(Lazy);
    registry.clear();
    expect(registry.names()).toEqual([]);
    expect(registry.has('Alpha')).toBe(false);
  });

  it('replaces an earlier registration of the same name', () => {
    registry.register('Alpha', Alpha);
    registry.register('Alpha', Beta);
    expect(registry.get('Alpha')).toBe(Beta);
  });

  it('does not confuse names with Object.prototype members', () => {
    expect(registry.has('toString')).toBe(false);
    expect(registry.get('constructor')).toBeUndefined();
  });

  it('refuses bad names and non-components, naming the registry and the problem', () => {
    expect(() => registry.register('', Alpha)).toThrow(InvalidRegistrationError);
    expect(() => registry.register('has space', Alpha)).toThrow(/TestRegistry: component name must match/);
    expect(() => registry.register('Thing', 'not a component' as never)).toThrow(
      /TestRegistry: "Thing" must be a React component/,
    );
    // One bad entry leaves the registry untouched.
    expect(() => registry.registerMany({ Alpha, Broken: null as never })).toThrow(InvalidRegistrationError);
    expect(registry.has('Alpha')).toBe(false);
  });

  it('gives readers immutable snapshots and a new one per change', () => {
    registry.register('Alpha', Alpha);
    const before = registry.snapshot();
    expect(Object.isFrozen(before)).toBe(true);
    expect(() => {
      (before as Record<string, unknown>).Beta = Beta;
    }).toThrow(TypeError);
    expect(registry.snapshot()).toBe(before); // stable until a change
    registry.register('Beta', Beta);
    const after = registry.snapshot();
    expect(after).not.toBe(before);
    expect(Object.keys(before)).toEqual(['Alpha']);
    expect(Object.keys(after)).toEqual(['Alpha', 'Beta']);
  });

  it('notifies subscribers of every change until they unsubscribe', () => {
    const listener = jest.fn();
    const unsubscribe = registry.subscribe(listener);
    registry.register('Alpha', Alpha);
    registry.registerMany({ Beta });
    registry.unregister('Alpha');
    registry.unregister('Alpha'); // no change, no call
    registry.clear();
    registry.clear(); // already empty
    expect(listener).toHaveBeenCalledTimes(4);
    unsubscribe();
    registry.register('Alpha', Alpha);
    expect(listener).toHaveBeenCalledTimes(4);
  });
});

describe('the two host registries', () => {
  afterEach(() => {
    SlotComponentRegistry.clear();
    GlobalComponentRegistry.clear();
  });

  it('are separate: a slot component is not a global (form) component', () => {
    SlotComponentRegistry.register('Alpha', Alpha);
    expect(GlobalComponentRegistry.has('Alpha')).toBe(false);
    GlobalComponentRegistry.register('Beta', Beta);
    expect(SlotComponentRegistry.has('Beta')).toBe(false);
    expect(SlotComponentRegistry.label).toBe('SlotComponentRegistry');
    expect(GlobalComponentRegistry.label).toBe('GlobalComponentRegistry');
  });
});
