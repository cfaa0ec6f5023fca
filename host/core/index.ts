/**
 * The core frontend package: what a host application (its pages, its bootstrap, the benchmark's bundled host)
 * builds on. Public: the registries and the renderer of slots, the form slot, the page's slot data and session, the
 * API client. For the shell itself: the runtime, the slot status views it shows, the hidden location and the
 * connection of remote modules to the registries. Internals (the slot boundary, the status's writers, the fallback
 * module) are imported from their files by tests only.
 */
export {
  ComponentRegistry,
  GlobalComponentRegistry,
  InvalidRegistrationError,
  SlotComponentRegistry,
  type RegistrableComponent,
  type SlotComponent,
} from './component-registry';
export { AppSlotRenderer, LocationSlots, type AppSlotRendererProps } from './app-slot-renderer';
export { FormSlot } from './slot-item';
export { SlotSourceProvider, useSession, useSlotData } from './slot-source-provider';
export type { Session } from '../loader/session-store';
export { sessionEndOf, type SessionEnd } from '../loader/session-end';
export type { SlotData, SlotSource } from '../loader/slot-source';
export { ApiClientProvider, useApiClient } from './api-client-context';
export { ApiError, createApiClient, type ApiClient } from '../loader/api-client';

// The shell's own: runtime, slot status and its views.
export { SlotRuntimeProvider, useSlotRuntime, createSlotStatus, type SlotRuntime } from './slot-runtime';
export { reportCaughtError } from './slot-boundary';
export type { FailedSlot } from './failed-slots';
export type { PageSlots, PageSlotStatus, PageSlotReason } from './page-slot-record';
export type { SlotFailure } from './log-slot-failures';
export { tabStorage } from './tab-storage';
export { createPropsCheck } from './dev-props-check';
export type { PropsCheck } from './props-check';
export { HiddenSlotLocation } from './hidden-slot-location';
export { componentFromModule, connectRegistries } from './connect-registries';
