import type { Logger } from 'pino';
import type { ReleaseSnapshot } from './releases/release-snapshot';
import type { RemoteRegistry } from './remotes/remote-registry';
import type { SlotEvents } from './slot-events/slot-events';
import type { SessionStorage } from './storage/session-storage';
import type { StorageEngine } from './storage/storage-engine';
import { addDatabasePoolMetrics } from './observability/database-pool-metrics';
import type { MetricsRegistry } from './observability/metrics-registry';
import { addRemoteDescriptorMetrics } from './remotes/remote-descriptor-metrics';
import { addSessionMetrics } from './auth/session-metrics';
import { addSlotEventMetrics } from './slot-events/slot-event-metrics';

export interface AppMetricsParts {
  sessions: SessionStorage;
  storage: StorageEngine;
  remoteRegistry: RemoteRegistry;
  slotEvents: SlotEvents;
  releaseSnapshot: ReleaseSnapshot;
  logger: Logger;
}

/**
 * The app's figures read when Prometheus scrapes (sessions, the database pool, the remotes' descriptors), the slot
 * loads visitors reported and the canaries, plus
 * prom-client's process and Node.js figures (CPU, memory, event loop lag, heap) under the same prefix. Those
 * measured per request (durations, sign-ins) are middleware, mounted in app-routes.ts.
 */
export function addAppMetrics(metrics: MetricsRegistry, parts: AppMetricsParts): void {
  metrics.defaultMetrics();
  addSessionMetrics(metrics, parts.sessions, parts.storage, parts.logger);
  addDatabasePoolMetrics(metrics, parts.storage);
  addRemoteDescriptorMetrics(metrics, parts.remoteRegistry);
  addSlotEventMetrics(metrics, parts.slotEvents, parts.releaseSnapshot);
}
