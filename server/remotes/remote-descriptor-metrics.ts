import { DESCRIPTOR_STATUSES, descriptorStatus } from './descriptor-status';
import type { RemoteRegistry } from './remote-registry';
import { descriptorUrlOf } from './remotes-config';
import type { MetricsRegistry } from '../observability/metrics-registry';

/**
 * `slots_remote_descriptor_status{remote, status}`: 1 for the status each remote served from another origin is in
 * (declared by entry, or served from a release with an absolute entry: what the last request to that origin came
 * to, asked every 30 s), 0 for the others, read from the remote registry when Prometheus scrapes. Alert on
 * `slots_remote_descriptor_status{status=~"down|timed-out|bad-answer"} == 1`.
 */
export function addRemoteDescriptorMetrics(metrics: MetricsRegistry, remotes: RemoteRegistry): void {
  metrics.gauge({
    name: 'slots_remote_descriptor_status',
    help: 'Remotes served from another origin: 1 for the status of the last request to it, asked every 30 s (answered, down, timed-out, bad-answer; released: served from its release, origin not asked yet; waiting: not asked yet).',
    labelNames: ['remote', 'status'] as const,
    collect() {
      // A remote gone from the configuration (SIGHUP) leaves no stale series behind.
      this.reset();
      // A remote this server builds, released to another origin, is served from there: its status too.
      const released = remotes.config.remotes.filter((remote) => {
        const release = remotes.releaseOf(remote.name);
        return release !== undefined && descriptorUrlOf(release.entry) !== null;
      });
      for (const remote of [...remotes.config.pending, ...released]) {
        // The inspector's status (descriptor-status.ts): the two never disagree.
        const current = descriptorStatus(remotes, remote);
        for (const status of DESCRIPTOR_STATUSES) this.set({ remote: remote.name, status }, status === current ? 1 : 0);
      }
    },
  });
}
