/**
 * The core frontend package: registries, the slot renderer and its data source, the session, the form slot item
 * and the Module Federation loader. Pages, tests and remotes import from here.
 */
export { ComponentRegistry, InvalidRegistrationError, isReactComponent } from './component-registry';
export type { RegistrableComponent, RegistrySnapshot, SlotComponent } from './component-registry';
export { SlotComponentRegistry } from './slot-component-registry';
export { GlobalComponentRegistry } from './global-component-registry';
export { AppSlotRenderer, type AppSlotRendererProps } from './app-slot-renderer';
export { SlotItem, renderSlotContent, type SlotItemProps } from './slot-item';
export { FormSlotItem, type FormSlotItemProps } from './form-slot-item';
export {
  SlotDataProvider,
  useSlotData,
  type SlotData,
  type SlotDataProviderProps,
  type SlotSource,
} from './slot-data-provider';
export { parseSlotMap, type ParsedSlotMap } from '../loader/parse-slot-map';
export {
  SlotRuntimeProvider,
  useSlotRuntime,
  useRegistrySnapshot,
  defaultSlotRuntime,
  type SlotRuntime,
} from './slot-runtime';
export { SlotErrorBoundary, reportCaughtError } from './slot-error-boundary';
export { SlotFailureView, type SlotFailureViewProps } from './slot-failure-view';
export { SlotLoadError } from './slot-load-error';
export { useSlotFrame, type SlotFrame } from './slot-frame';
export {
  createSlotFailureReporter,
  type SlotFailure,
  type SlotFailureKind,
  type SlotFailureReporter,
  type SlotFailureLogger,
} from './slot-failure-reporter';
export { CORE_MESSAGES } from '../loader/messages';
export { ApiError, createApiClient, type ApiClient, type FetchLike, type ResponseLike } from '../loader/api-client';
export { ApiClientProvider, useApiClient } from './api-client-context';
export { SessionProvider, useSession, type Session, type SessionStatus } from './session-provider';
export {
  createFederationLoader,
  type FederationLoader,
  type FederationLoaderOptions,
} from './federation/federation-loader';
export {
  createReliabilityPlugin,
  DEFAULT_RELIABILITY,
  QuarantinedRemoteError,
  RELIABILITY_PLUGIN_NAME,
  type FallbackRequest,
  type ReliabilityOptions,
  type ReliabilityPlugin,
  type RemoteFailure,
} from '../loader/reliability-plugin';
export {
  createRemoteModuleLoader,
  type LoadedModule,
  type ProvidedComponent,
  type RemoteModuleLoader,
  type RemoteModuleLoaderOptions,
} from '../loader/remote-module-loader';
export { createFallbackModule, type FallbackModule } from './fallback-module';
export { componentFromModule } from './federation/module-shape';
export { fetchRemoteCatalogue, parseRemotesPayload, type ParsedCatalogue } from '../loader/remote-descriptors';
export { HOST_REFRESH_EVENT, type HostRefreshDetail } from '../../shared';
