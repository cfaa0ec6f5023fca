/** The server's public API for a host application: the app factory and what it registers. */
// The generated declarations that type `Slot.make` (an augmentation of shared/'s KnownSlotComponents): imported here so
// a host application's own compile, whatever its tsconfig includes, types its registrations as server/ is typed.
// Type-only: nothing is loaded at run time, and the declaration output (.tsbuild/server) leaves it out, so the
// repository's test project, which reads the server through that output and registers made-up components, stays
// untyped as before.
import type {} from './slots/generated/known-slot-components';
export { createApp, App, type AppOptions, DEFAULT_DIST_DIR } from './app';
export { startServer, type StartServerOptions, type RunningServer } from './start-server';
export { SlotRegistrationError } from './slots/slot-registry';
export { SlotContractError, formatSlotProblem, type SlotProblem, type SlotProblemKind } from './slots/slot-contract';
export type { SlotRegistrationMap, SlotRegistrySnapshot } from './slots/slot-registry';
export { Resource } from './resources/resource';
export { Field, MAX_FIELD_LENGTH, type FieldOptions, type SelectFieldOptions } from './resources/field';
export { Relation, type RelationKind } from './resources/relation';
export { ResourceDefinitionError } from './resources/resource-definition-error';
export { RecordFilter, type RecordFilterKind } from './resources/record-filter';
export type { RecordSource } from './resources/record-source';
export type { StorageSettings } from './storage/open-storage';
export type { PostgresSettings } from './storage/postgres-engine';
export type { DashboardDefinition, DashboardContext } from './meta/dashboard-registry';
export type { ModuleDefinition } from './meta/module-registry';
export type { ReadinessCheck } from './health/health-router';
export { NavigationDefinitionError } from './meta/navigation-definition';
export { RemotesConfigError } from './config/remotes-config-error';
export type { FeatureFlagStore } from './flags/feature-flag-store';
// What Slot.make, slot.placed and SlotLocation.from throw: imported with them, from here.
export { Slot, SlotLocation, InvalidSlotError, UnknownSlotLocationError } from '../shared';
