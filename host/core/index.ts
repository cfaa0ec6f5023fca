/**
 * The core frontend package: what a host application (its pages, its bootstrap, the benchmark's bundled host)
 * builds on. The registries and the renderer of slots, the form slot item, the page's slot data and session, the
 * API client, failure reporting, and the connection of remote modules to the registries. Internals (the slot
 * boundary, the runtime context's defaults, the fallback module) are imported from their files by tests only.
 */
export {
  ComponentRegistry,
  InvalidRegistrationError,
  type RegistrableComponent,
  type SlotComponent,
} from './component-registry';
export { GlobalComponentRegistry, SlotComponentRegistry } from './registries';
export { AppSlotRenderer, type AppSlotRendererProps } from './app-slot-renderer';
export { FormSlot } from './slot-item';
export { SlotDataProvider, useSlotData, type SlotData } from './slot-data-provider';
export { SessionProvider, useSession, type Session } from './session-provider';
export { ApiClientProvider, useApiClient } from './api-client-context';
export { ApiError, createApiClient, type ApiClient } from '../loader/api-client';
export { SlotRuntimeProvider, useSlotRuntime, type SlotRuntime } from './slot-runtime';
export { reportCaughtError } from './slot-boundary';
export { createSlotFailureReporter, type SlotFailure } from './slot-failure-reporter';
export { FailedSlots, type FailedSlot } from './failed-slots';
export { tabStorage } from './tab-storage';
export { PageSlotRecord, type PageSlots, type PageSlotStatus, type PageSlotReason } from './page-slot-record';
export { createPropsCheck, describePropsErrors, type PropsCheck } from './props-check';
export { HiddenSlotLocation } from './hidden-slot-location';
export { componentFromModule, connectRegistries } from './connect-registries';
