import type { BuildIdentity } from '../process/build-identity';
import type { MetricsRegistry } from './metrics-registry';

/**
 * `slots_build_info{revision, schema} 1`: which release each host runs (the build's revision, `unknown` when not
 * built from a git checkout) and the database schema version it brings, as Prometheus' `*_info` convention has it:
 * a rollout shows as the hosts' series changing, a host left behind as one that did not, and the schema says which
 * hosts an older database would refuse.
 */
export function addBuildInfoMetric(metrics: MetricsRegistry, identity: BuildIdentity, schema: number): void {
  metrics
    .gauge({
      name: 'slots_build_info',
      help: "This host's release: the build's git revision (-dirty: changed files) and the database schema it brings.",
      labelNames: ['revision', 'schema'] as const,
    })
    .set({ revision: identity.revision, schema: String(schema) }, 1);
}
