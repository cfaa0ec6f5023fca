import type { Logger } from 'pino';
import type { ReleaseService } from '../releases/release-service';
import type { ReleaseSnapshot } from '../releases/release-snapshot';
import { canaryVerdict, type ReleaseLoads } from './canary-verdict';
import type { SlotLoadAggregator } from './slot-load-aggregator';
import type { CanaryRollbackSettings } from './slot-event-settings';
import { SPAN_MS, type SlotLoadStore } from './slot-load-store';

export interface CanaryWatchParts {
  snapshot: ReleaseSnapshot;
  service: ReleaseService;
  aggregator: SlotLoadAggregator;
  store: SlotLoadStore;
  logger: Logger;
  settings: CanaryRollbackSettings;
  now?: () => number;
}

/**
 * Rolls back, on its own, a canary whose slot loads fail clearly more often than its stable release's. Every host
 * runs it every `checkMs` on the counts every host shares (the database): the first to decide ends the canary,
 * audited as `canary-auto-rollback` with the numbers, and logs it at error level; the others find it ended.
 */
export class CanaryWatch {
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private readonly now: () => number;
  private readonly rollBackListeners = new Set<(remote: string, canary: string) => void>();

  constructor(private readonly parts: CanaryWatchParts) {
    this.now = parts.now ?? Date.now;
  }

  /** Calls `listener` for every canary this host rolled back (e.g. its metrics). Returns what stops it. */
  onRollBack(listener: (remote: string, canary: string) => void): () => void {
    this.rollBackListeners.add(listener);
    return () => this.rollBackListeners.delete(listener);
  }

  start(): void {
    if (!this.parts.settings.enabled) return;
    this.timer ??= setInterval(() => {
      this.check().catch((error: unknown) =>
        this.parts.logger.warn({ err: error }, 'canary watch: comparing the canaries failed; tried again'),
      );
    }, this.parts.settings.checkMs);
    this.timer.unref();
  }

  /** Compares every running canary with its stable release once (one comparison at a time). */
  check(): Promise<void> {
    this.checking ??= this.compare().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async compare(): Promise<void> {
    const { snapshot, settings } = this.parts;
    const canaries = snapshot.rollouts().filter((rollout) => rollout.canary !== null && rollout.active !== null);
    if (canaries.length === 0) return;
    await this.parts.aggregator.flush();
    const since = Math.floor(this.now() / SPAN_MS.minute) * SPAN_MS.minute - (settings.windowMs - SPAN_MS.minute);
    const sums = await this.parts.store.sums('minute', since);
    for (const rollout of canaries) {
      if (rollout.canary === null || rollout.active === null) continue;
      const loadsOf = (release: string): ReleaseLoads => {
        const loads = { loads: 0, failures: 0 };
        for (const sum of sums) {
          if (sum.remote !== rollout.remote || sum.release !== release) continue;
          const [rendered = 0, failed = 0, timedOut = 0] = sum.counts;
          loads.loads += rendered + failed + timedOut;
          loads.failures += failed + timedOut;
        }
        return loads;
      };
      const versions = { canary: rollout.canary.version, stable: rollout.active };
      const verdict = canaryVerdict(versions, loadsOf(versions.canary), loadsOf(versions.stable), settings);
      if (!verdict.rollBack) continue;
      const rolledBack = await this.parts.service.autoRollback(rollout.remote, versions.canary, verdict.reason);
      if (rolledBack) {
        for (const listener of this.rollBackListeners) listener(rollout.remote, versions.canary);
        this.parts.logger.error(
          { remote: rollout.remote, canary: versions.canary, stable: versions.stable, reason: verdict.reason },
          `CANARY ROLLED BACK AUTOMATICALLY: remote "${rollout.remote}" ${verdict.reason}`,
        );
      }
    }
  }
}
