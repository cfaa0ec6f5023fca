import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import {
  GlobalComponentRegistry,
  SlotComponentRegistry,
  type ComponentRegistry,
  type RegistrySnapshot,
} from './component-registry';
import { FailedSlots } from './failed-slots';
import { logSlotFailures, type SlotFailureLogger } from './log-slot-failures';
import { PageSlotRecord } from './page-slot-record';
import type { PreviewedRelease } from '../loader/remote-descriptors';
import type { PropsCheck } from './props-check';
import { browserChannel, sendSlotEvents, type SlotEventsChannel } from './send-slot-events';
import { SlotStatus } from './slot-status';
import { tabStorage } from './tab-storage';

/** What slot rendering depends on besides the slot data: registries, the slot status and its views. */
export interface SlotRuntime {
  slotRegistry: ComponentRegistry;
  globalRegistry: ComponentRegistry;
  /** The remote that provides a component, for logs and placeholders; null when not from a remote. */
  remoteOf(component: string): string | null;
  /** Each slot's state on the page: every slot writes into it. */
  slotStatus: SlotStatus;
  /** View of the status: the slots on screen that failed, for the notice that some tools are unavailable. */
  failedSlots: FailedSlots;
  /**
   * View of the status: per page of this tab, which slots loaded, failed (and why) or were hidden, for the slot
   * inspector. Kept in the tab's sessionStorage, so the inspector opened by its address still has it.
   */
  pageSlots: PageSlotRecord;
  /** Development: failing slots show a placeholder saying what failed. Production: they show nothing. */
  showFailures: boolean;
  /** The placeholder's last line: why failures are shown here (development, or a preview for operators). */
  failureHint: string;
  /** Development: checks a slot's props against its schema before rendering it. Null: no check (production). */
  propsCheck: PropsCheck | null;
  /** The releases this session previews: their components are not everyone's, and every page says so. */
  previewedReleases: readonly PreviewedRelease[];
}

export interface SlotStatusViewsOptions {
  /** Where the page record is kept (none by default: memory only). */
  storage?: () => Storage | null;
  /** Where each failure is logged once (console.error by default). */
  log?: SlotFailureLogger;
  /** Where one event per slot load is sent to the server (none by default). */
  events?: SlotEventsChannel | null;
}

/**
 * A slot status with its views subscribed: the failed-slots list, the inspector's page record, the console log and
 * the events sent to the server (the development placeholder reads the status where a slot failed). A new view
 * subscribes here.
 */
export function createSlotStatus(
  options: SlotStatusViewsOptions = {},
): Pick<SlotRuntime, 'slotStatus' | 'failedSlots' | 'pageSlots'> {
  const slotStatus = new SlotStatus();
  const pageSlots = new PageSlotRecord(options.storage);
  pageSlots.follow(slotStatus);
  if (options.storage !== undefined && typeof window !== 'undefined') pageSlots.saveOnPageHide(window);
  logSlotFailures(slotStatus, options.log);
  if (options.events) sendSlotEvents(slotStatus, options.events);
  return { slotStatus, failedSlots: new FailedSlots(slotStatus), pageSlots };
}

export const defaultSlotRuntime: SlotRuntime = Object.freeze({
  slotRegistry: SlotComponentRegistry,
  globalRegistry: GlobalComponentRegistry,
  remoteOf: () => null,
  ...createSlotStatus({ storage: tabStorage, events: browserChannel() }),
  showFailures: process.env.NODE_ENV !== 'production',
  failureHint: 'Shown because the server runs in development.',
  propsCheck: null,
  previewedReleases: [],
});

const SlotRuntimeContext = createContext<SlotRuntime>(defaultSlotRuntime);

export interface SlotRuntimeProviderProps {
  /** Overrides of the defaults (the global registries, the status kept in this tab, placeholders outside production). */
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
  return useSyncExternalStore(registry.subscribe, registry.snapshot, registry.snapshot);
}
