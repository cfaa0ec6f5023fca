import type { PostgresEngine } from '../storage/postgres-engine';
import type { StorageEngine } from '../storage/storage-engine';
import type { MetricsRegistry } from './metrics-registry';

/**
 * `slots_db_pool_connections{state}` (open, idle, waiting: requests queued for a connection) and
 * `slots_db_pool_max_connections`, read from the PostgreSQL pool when Prometheus scrapes. Requests waiting for a
 * connection while `open` equals the maximum: DATABASE_POOL_SIZE is too small for the load. SQLite has no pool: none.
 */
export function addDatabasePoolMetrics(metrics: MetricsRegistry, storage: StorageEngine): void {
  if (storage.kind !== 'postgres') return;
  const { pool } = storage as PostgresEngine;
  metrics.gauge({
    name: 'slots_db_pool_connections',
    help: 'PostgreSQL pool: open connections, idle ones, and queries waiting for one.',
    labelNames: ['state'] as const,
    collect() {
      this.set({ state: 'open' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  metrics.gauge({
    name: 'slots_db_pool_max_connections',
    help: 'PostgreSQL pool: the most connections it opens (DATABASE_POOL_SIZE).',
    collect() {
      this.set(pool.options.max ?? 10);
    },
  });
}
