import { DESCRIPTOR_STATUSES, descriptorStatus } from '../remotes/descriptor-status';
import type { RemoteRegistry } from '../remotes/remote-registry';
import type { MetricsRegistry } from './metrics-registry';

/**
 * `slots_remote_descriptor_status{remote, status}`: 1 for the status each remote declared by entry is in (what the
 * last request for its descriptor came to), 0 for the others, read from the remote registry when Prometheus
 * scrapes. Alert on `slots_remote_descriptor_status{status!="answered"} == 1`.
 */
export function addRemoteDescriptorMetrics(metrics: MetricsRegistry, remotes: RemoteRegistry): void {
  metrics.gauge({
    name: 'slots_remote_descriptor_status',
    help: 'Remotes declared by entry: 1 for the status of the last request for the descriptor (answered, down, timed-out, bad-answer; released: served from its stored release, origin not polled; waiting: not asked yet).',
    labelNames: ['remote', 'status'] as const,
    collect() {
      // A remote gone from the configuration (SIGHUP) leaves no stale series behind.
      this.reset();
      for (const remote of remotes.config.pending) {
        // The inspector's status (descriptor-status.ts): the two never disagree.
        const current = descriptorStatus(remotes, remote);
        for (const status of DESCRIPTOR_STATUSES) this.set({ remote: remote.name, status }, status === current ? 1 : 0);
      }
    },
  });
}
