import type { MetricsRegistry } from '../observability/metrics-registry';
import type { ReleaseSnapshot } from './release-snapshot';

/**
 * The progressive rollouts running or paused, on every host alike (read from the snapshot at scrape, whichever host
 * advanced them):
 * - `slots_rollout_step{remote, version, state}`: the step in force, from 1;
 * - `slots_rollout_share{remote, version, state}`: its share of the users, in %.
 * A plan that ended leaves no series behind (its release is active, or the stable one is again).
 */
export function addRolloutMetrics(metrics: MetricsRegistry, snapshot: ReleaseSnapshot): void {
  const live = () => snapshot.rolloutPlans().filter((plan) => plan.state === 'running' || plan.state === 'paused');
  metrics.gauge({
    name: 'slots_rollout_step',
    help: 'Progressive rollouts running or paused: the step in force, from 1.',
    labelNames: ['remote', 'version', 'state'] as const,
    collect() {
      this.reset();
      for (const plan of live())
        this.set({ remote: plan.remote, version: plan.version, state: plan.state }, plan.step + 1);
    },
  });
  metrics.gauge({
    name: 'slots_rollout_share',
    help: 'Progressive rollouts running or paused: the percentage of users their release is given at the step in force.',
    labelNames: ['remote', 'version', 'state'] as const,
    collect() {
      this.reset();
      for (const plan of live())
        this.set({ remote: plan.remote, version: plan.version, state: plan.state }, plan.share);
    },
  });
}
