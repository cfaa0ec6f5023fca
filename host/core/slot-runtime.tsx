import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { ComponentRegistry, RegistrySnapshot } from './component-registry';
import { FailedSlots } from './failed-slots';
import { PageSlotRecord } from './page-slot-record';
import type { PropsCheck } from './props-check';
import { tabStorage } from './tab-storage';
import { GlobalComponentRegistry, SlotComponentRegistry } from './registries';
import { createSlotFailureReporter, type SlotFailureReporter } from './slot-failure-reporter';

/** What slot rendering depends on besides the slot data: registries, failure reporting, development details. */
export interface SlotRuntime {
  slotRegistry: ComponentRegistry;
  globalRegistry: ComponentRegistry;
  /** The remote that provides a component, for logs and placeholders; null when not from a remote. */
  remoteOf(component: string): string | null;
  reporter: SlotFailureReporter;
  /** The slots on screen that failed, for the notice that some tools are unavailable. */
  failedSlots: FailedSlots;
  /** Development: failing slots show a placeholder saying what failed. Production: they show nothing. */
  showFailures: boolean;
  /**
   * Per page of this tab: which slots loaded, failed (and why) or were hidden, for the slot inspector. Kept in the
   * tab's sessionStorage, so the inspector opened by its address (a full page load) still has it.
   */
  pageSlots: PageSlotRecord;
  /** Development: checks a slot's props against its schema before rendering it. Null: no check (production). */
  propsCheck: PropsCheck | null;
}

export const defaultSlotRuntime: SlotRuntime = Object.freeze({
  slotRegistry: SlotComponentRegistry,
  globalRegistry: GlobalComponentRegistry,
  remoteOf: () => null,
  reporter: createSlotFailureReporter(),
  failedSlots: new FailedSlots(),
  showFailures: process.env.NODE_ENV !== 'production',
  pageSlots: new PageSlotRecord(tabStorage),
  propsCheck: null,
});

const SlotRuntimeContext = createContext<SlotRuntime>(defaultSlotRuntime);

export interface SlotRuntimeProviderProps {
  /** Overrides of the defaults (the global registries, console logging, placeholders outside production). */
  runtime: Partial<SlotRuntime>;
  children?: ReactNode;
}

export function SlotRuntimeProvider({ runtime, children }: SlotRuntimeProviderProps) {
  const parent = useContext(SlotRuntimeContext);
  const value = useMemo(() => ({ ...parent, ...runtime }), [parent, runtime]);
  return <SlotRuntimeContext.Provider value={value}>{children}</SlotRuntimeContext.Provider>;
}

export function useSlotRuntime(): SlotRuntime {
  return useContext(SlotRuntimeContext);
}

/** The registry's current snapshot; re-renders the caller whenever the registry changes. */
export function useRegistrySnapshot(registry: ComponentRegistry): RegistrySnapshot {
  const subscribe = useMemo(() => (listener: () => void) => registry.subscribe(listener), [registry]);
  const read = useMemo(() => () => registry.snapshot(), [registry]);
  return useSyncExternalStore(subscribe, read, read);
}
