/** The server's public API for a host application: the app factory and what it registers. */
export { createApp, App, type AppOptions, DEFAULT_DIST_DIR } from './app';
export { startServer, type StartServerOptions, type RunningServer } from './start-server';
export { SlotRegistrationError } from './slots/slot-registry';
export type { SlotRegistrationMap, SlotRegistrySnapshot } from './slots/slot-registry';
export { Resource } from './resources/resource';
export { Field, type FieldOptions, type SelectFieldOptions } from './resources/field';
export { Relation, type RelationKind } from './resources/relation';
export { ResourceDefinitionError } from './resources/resource-definition-error';
export type { RecordSource } from './resources/record-source';
export type { StorageSettings } from './storage/open-storage';
export type { PostgresSettings } from './storage/postgres-engine';
export type { DashboardDefinition, DashboardContext } from './meta/dashboard-registry';
export type { ModuleDefinition } from './meta/module-registry';
export type { ReadinessCheck } from './health/health-router';
export { NavigationDefinitionError } from './meta/navigation-definition';
export { Slot, SlotLocation } from '../shared';
