import { DESCRIPTOR_STATUSES, descriptorStatus, servedUnaskedStatus } from './descriptor-status';
import type { RemoteRegistry } from './remote-registry';
import type { MetricsRegistry } from '../observability/metrics-registry';

/**
 * Every value of the metric's `status`: an origin's answer (DESCRIPTOR_STATUSES), or none asked (`built`, `listed`),
 * or switched off (`disabled`), as the slot inspector says them. Each remote has a series of each, one of them at 1.
 */
export const REMOTE_METRIC_STATUSES = [...DESCRIPTOR_STATUSES, 'built', 'listed', 'disabled'] as const;

/**
 * `slots_remote_descriptor_status{remote, status}`: 1 for the status each configured remote is in, 0 for the
 * others, read from the remote registry when Prometheus scrapes, as the slot inspector says it. A remote served from
 * another origin (declared by entry, or served from a release) has what the last request to that origin came to,
 * asked every 30 s; a remote of the build (`built`) or whose components the file lists (`listed`) is served without
 * asking anyone, and one switched off is `disabled`: each has its series all the same, so that a remote with none is
 * one this host does not know, never one it serves. Alert on
 * `slots_remote_descriptor_status{status=~"down|timed-out|bad-answer"} == 1`.
 */
export function addRemoteDescriptorMetrics(metrics: MetricsRegistry, remotes: RemoteRegistry): void {
  metrics.gauge({
    name: 'slots_remote_descriptor_status',
    help: 'Every configured remote: 1 for its status, 0 for the others. Served from another origin: what the last request to it came to, asked every 30 s (answered, down, timed-out, bad-answer; released: served from its release, origin not asked yet; waiting: not asked yet). Served unasked: built (from this server’s build), listed (components listed by REMOTES_CONFIG). Or disabled.',
    labelNames: ['remote', 'status'] as const,
    collect() {
      // A remote gone from the configuration (SIGHUP) leaves no stale series behind.
      this.reset();
      const { config } = remotes;
      const statuses = [
        // A remote whose components are known here, released (to another origin or not), is served from its release:
        // its status is that release's, as in the inspector (descriptor-status.ts: the two never disagree).
        ...config.remotes.map((remote) => ({
          name: remote.name,
          current: remotes.isReleased(remote.name)
            ? descriptorStatus(remotes, remote)
            : servedUnaskedStatus(config, remote),
        })),
        ...config.pending.map((remote) => ({ name: remote.name, current: descriptorStatus(remotes, remote) })),
        ...config.disabled.map((remote) => ({ name: remote.name, current: 'disabled' as const })),
      ];
      for (const { name, current } of statuses) {
        for (const status of REMOTE_METRIC_STATUSES) this.set({ remote: name, status }, status === current ? 1 : 0);
      }
    },
  });
}
