import type { Logger } from 'pino';
import { readBuildIdentity } from '../process/build-identity';
import { RELEASE_SCHEMA_VERSION } from '../storage/migrations';
import type { StorageEngine } from '../storage/storage-engine';
import { SERVER_CHECK_NAMES, withPassingUnreported, type ReadinessReport } from '../readiness-checks';
import { addBuildInfoMetric } from './build-info-metric';
import { addDatabasePoolMetrics } from './database-pool-metrics';
import type { MetricsRegistry } from './metrics-registry';
import { withinDeadline } from '../storage/within-deadline';

/** What a re-read of REMOTES_CONFIG (SIGHUP, `npm run remotes:reload`) came to on this host. */
export type RemotesConfigReloadOutcome = 'taken' | 'refused';

export interface OperationsMetricsParts {
  /** The readiness checks by name as `GET /readyz` reports them (READINESS_CHECKS, and the application's own). */
  readiness: () => Promise<ReadinessReport>;
  logger: Logger;
}

/**
 * The readiness checks slower than this are left out of a scrape. Above the checks' own deadline (a frozen database or
 * Redis is failing after READINESS_CHECK_DEADLINE_MS), so that an outage reads 0, not a missing series; below
 * Prometheus' default scrape timeout (10 s).
 */
const READINESS_SCRAPE_TIMEOUT_MS = 3000;

/**
 * The host's own series, beside what each module measures: Node's defaults (memory, event loop, GC), the release it
 * runs, the database pool, and the readiness checks.
 */
export function addHostMetrics(
  metrics: MetricsRegistry,
  parts: OperationsMetricsParts & { storage: StorageEngine },
): void {
  metrics.defaultMetrics();
  addBuildInfoMetric(metrics, readBuildIdentity(), RELEASE_SCHEMA_VERSION);
  addDatabasePoolMetrics(metrics, parts.storage);
  addReadinessMetrics(metrics, parts);
}

/**
 * `slots_readiness_check{check}`: 1 while a readiness check passes, 0 while it fails, asked when Prometheus scrapes
 * (left out after 3 s), so a dependency's outage is a series, not only a 503 of `/readyz`. A check of the server's own
 * that `/readyz` reports only while it fails (`started`, `draining`) reads 1 while absent: each series of
 * READINESS_CHECKS is there from the first scrape, but `redis`, there only where Redis is configured.
 */
export function addReadinessMetrics(metrics: MetricsRegistry, parts: OperationsMetricsParts): void {
  metrics.gauge({
    name: 'slots_readiness_check',
    help:
      `Readiness checks of this host, as GET /readyz asks them (${SERVER_CHECK_NAMES.join(', ')}, ` +
      "and the application's own): 1 passing, 0 failing, by check.",
    labelNames: ['check'] as const,
    async collect() {
      try {
        const checks = await withinDeadline(parts.readiness(), READINESS_SCRAPE_TIMEOUT_MS);
        this.reset();
        for (const [check, state] of Object.entries(withPassingUnreported(checks)))
          this.set({ check }, state === 'ok' ? 1 : 0);
      } catch (error) {
        this.reset();
        parts.logger.warn({ err: error }, 'metrics: the readiness checks did not answer');
      }
    },
  });
}

/**
 * `slots_remotes_config_reloads_total{outcome}`: re-reads of REMOTES_CONFIG taken or refused (an invalid file, a slot
 * it would break): a refused reload only logs, and the previous configuration stays in use. Returns what counts a
 * reload.
 */
export function addConfigReloadMetrics(metrics: MetricsRegistry): (outcome: RemotesConfigReloadOutcome) => void {
  const reloads = metrics.counter({
    name: 'slots_remotes_config_reloads_total',
    help: 'Re-reads of REMOTES_CONFIG on this host, by outcome: taken, or refused (the previous configuration stays).',
    labelNames: ['outcome'] as const,
  });
  // Both series from the first scrape: an alert on a rate needs the zero before the first refusal.
  for (const outcome of ['taken', 'refused'] as const) reloads.inc({ outcome }, 0);
  return (outcome) => reloads.inc({ outcome });
}
