import type { ReleaseSnapshot } from '../releases/release-snapshot';
import type { AutoRollbackObserver } from './auto-rollback-observer';
import type { CanaryWatch } from './canary-watch';
import type { SlotLoadAggregator } from './slot-load-aggregator';
import type { MetricsRegistry } from '../observability/metrics-registry';
import type { RolloutPlans } from '../releases/rollout-plans';

/** The `release` label of a remote served without a release (built into the server, or a kit's dev server). */
export const NO_RELEASE_LABEL = 'none';

/**
 * The dropped events' first name, a gauge: a count that only grows, which `rate()` cannot read across a restart.
 * Exposed beside `slots_slot_events_dropped_total` for one release (docs/operators/upgrade.md), then removed.
 */
export const DEPRECATED_DROPPED_GAUGE = 'slots_slot_events_dropped';

/**
 * What visitors' browsers reported, as this host counted it, and the canaries:
 * - `slots_slot_loads_total{remote, release, outcome}`: slot loads by outcome (rendered, failed, timed-out, hidden);
 *   a failure rate is `rate(...{outcome=~"failed|timed-out"}) / rate(...{outcome!="hidden"})`. Per remote and
 *   release, not per location or component, so the series stay few;
 * - `slots_slot_events_dropped_total`: events this host could not count (its pending rows at their bound), a
 *   counter, so `rate()` and `increase()` read it across restarts; `slots_slot_events_dropped`, the same figure as a
 *   gauge, is kept for one release so dashboards can move (DEPRECATED_DROPPED_GAUGE);
 * - `slots_canary_percent{remote, version}`: the share of users each running canary gets (read at scrape);
 * - `slots_canary_auto_rollbacks_total{remote}`: canaries this host rolled back for failing more than their stable
 *   release (docs/operators/slot-events.md), a progressive rollout's included: the `_seen_total` counts those too;
 * - `slots_canary_auto_rollbacks_seen_total{remote}`: automatic rollbacks this host saw in the release snapshot,
 *   whichever host decided them: every host counts each one. Alert on any increase of this one.
 */
export function addSlotEventMetrics(
  metrics: MetricsRegistry,
  slotEvents: { aggregator: SlotLoadAggregator; canaryWatch: CanaryWatch; rollbackObserver: AutoRollbackObserver },
  snapshot: ReleaseSnapshot,
  rollouts: Pick<RolloutPlans, 'onRollBack'>,
): void {
  const loads = metrics.counter({
    name: 'slots_slot_loads_total',
    help: 'Slot loads reported by visitors’ browsers and counted by this host, by remote, release and outcome.',
    labelNames: ['remote', 'release', 'outcome'] as const,
  });
  slotEvents.aggregator.onRecord((event) =>
    loads.inc({ remote: event.remote, release: event.release || NO_RELEASE_LABEL, outcome: event.outcome }),
  );
  metrics.counter({
    name: 'slots_slot_events_dropped_total',
    help: 'Slot events this host could not count, because its rows waiting for the next write were at their bound.',
    collect() {
      // The aggregator's own count only grows; a counter set from it at each scrape (a reset and the whole count).
      this.reset();
      this.inc(slotEvents.aggregator.snapshot().dropped);
    },
  });
  metrics.gauge({
    name: DEPRECATED_DROPPED_GAUGE,
    help: 'Deprecated: use slots_slot_events_dropped_total (a counter); this gauge goes in the next release. Slot events this host could not count since it started.',
    collect() {
      this.set(slotEvents.aggregator.snapshot().dropped);
    },
  });
  metrics.gauge({
    name: 'slots_canary_percent',
    help: 'Running canaries: the percentage of users each gets.',
    labelNames: ['remote', 'version'] as const,
    collect() {
      // A canary that ended leaves no stale series behind.
      this.reset();
      for (const rollout of snapshot.rollouts()) {
        if (!rollout.canary) continue;
        this.set({ remote: rollout.remote, version: rollout.canary.version }, rollout.canary.percent);
        // The rollback counters of a remote with a canary are there from the canary's first scrape, at 0 (collected
        // after this gauge, registered first): an alert's increase counts from a series' first sample, so a series
        // appearing at 1 with its rollback would count nothing (SlotsCanaryRolledBack).
        rollbacks.inc({ remote: rollout.remote }, 0);
        seen.inc({ remote: rollout.remote }, 0);
      }
    },
  });
  const rollbacks = metrics.counter({
    name: 'slots_canary_auto_rollbacks_total',
    help: 'Canaries this host rolled back automatically for failing more than their stable release.',
    labelNames: ['remote'] as const,
  });
  slotEvents.canaryWatch.onRollBack((remote) => rollbacks.inc({ remote }));
  rollouts.onRollBack((remote) => rollbacks.inc({ remote }));
  const seen = metrics.counter({
    name: 'slots_canary_auto_rollbacks_seen_total',
    help: 'Automatic canary rollbacks this host saw in the release snapshot, whichever host decided them.',
    labelNames: ['remote'] as const,
  });
  slotEvents.rollbackObserver.onSeen(({ remote }) => seen.inc({ remote }));
}
