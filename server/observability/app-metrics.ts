import type { Logger } from 'pino';
import type { RemoteRegistry } from '../remotes/remote-registry';
import type { SessionStorage } from '../storage/session-storage';
import type { StorageEngine } from '../storage/storage-engine';
import { addDatabasePoolMetrics } from './database-pool-metrics';
import type { MetricsRegistry } from './metrics-registry';
import { addRemoteDescriptorMetrics } from './remote-descriptor-metrics';
import { addSessionMetrics } from './session-metrics';

export interface AppMetricsParts {
  sessions: SessionStorage;
  storage: StorageEngine;
  remoteRegistry: RemoteRegistry;
  logger: Logger;
}

/**
 * The app's figures read when Prometheus scrapes (sessions, the database pool, the remotes' descriptors), plus
 * prom-client's process and Node.js figures (CPU, memory, event loop lag, heap) under the same prefix. Those
 * measured per request (durations, sign-ins) are middleware, mounted in app-routes.ts.
 */
export function addAppMetrics(metrics: MetricsRegistry, parts: AppMetricsParts): void {
  metrics.defaultMetrics();
  addSessionMetrics(metrics, parts.sessions, parts.storage, parts.logger);
  addDatabasePoolMetrics(metrics, parts.storage);
  addRemoteDescriptorMetrics(metrics, parts.remoteRegistry);
}
