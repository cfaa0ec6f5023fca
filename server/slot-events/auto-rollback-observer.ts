import type { Logger } from 'pino';
import type { ReleaseSnapshot } from '../releases/release-snapshot';
import type { ReleaseStore } from '../releases/release-store';

export interface AutoRollbackObserverParts {
  snapshot: Pick<ReleaseSnapshot, 'rollouts' | 'subscribe'>;
  store: Pick<ReleaseStore, 'lastRolloutChanges'>;
  logger: Logger;
}

/** An automatic rollback as a host saw it: the canary ended, and the audit says by `canary-auto-rollback`. */
export interface SeenRollback {
  remote: string;
  canary: string;
  reason: string;
}

/**
 * Makes every host tell of every automatic rollback, not only the one whose canary watch decided it: each host
 * follows the release snapshot (which every host polls), and when a canary it saw running ends, reads the remote's
 * last rollout change; a `canary-auto-rollback` is logged once at error level (`CANARY ROLLBACK SEEN: ...`) and
 * given to the listeners (the `slots_canary_auto_rollbacks_seen_total` counter). An alert on either then does not
 * depend on which host decided, nor on that host's logs being read.
 */
export class AutoRollbackObserver {
  /** Remote -> the canary version running at the last snapshot this host saw. */
  private canaries = new Map<string, string>();
  /** Audit entries already told (a snapshot change may come twice). */
  private readonly told = new Set<number>();
  private readonly listeners = new Set<(seen: SeenRollback) => void>();
  private stop: (() => void) | null = null;
  private checking: Promise<void> = Promise.resolve();

  constructor(private readonly parts: AutoRollbackObserverParts) {}

  onSeen(listener: (seen: SeenRollback) => void): void {
    this.listeners.add(listener);
  }

  /** Starts following the snapshot from what it holds now (a rollback before this host started is not told). */
  start(): void {
    this.canaries = this.runningCanaries();
    this.stop ??= this.parts.snapshot.subscribe(() => {
      this.checking = this.checking
        .then(() => this.check())
        .catch((error: unknown) => {
          this.parts.logger.warn({ err: error }, 'canary rollbacks: reading the rollout changes failed');
        });
    });
  }

  /** Resolves once the changes seen so far are told (for tests). */
  settled(): Promise<void> {
    return this.checking;
  }

  close(): void {
    this.stop?.();
    this.stop = null;
  }

  private async check(): Promise<void> {
    const before = this.canaries;
    const now = this.runningCanaries();
    this.canaries = now;
    const ended = [...before].filter(([remote, version]) => now.get(remote) !== version);
    if (ended.length === 0) return;
    const changes = await this.parts.store.lastRolloutChanges();
    for (const [remote, version] of ended) {
      const change = changes.get(remote);
      // A canary the watch rolled back, or a progressive rollout's step that found its canary worse.
      const automatic = change?.action === 'canary-auto-rollback' || change?.action === 'rollout-rolled-back';
      if (change === undefined || !automatic || this.told.has(change.id)) continue;
      this.told.add(change.id);
      const reason = (change.after as { reason?: unknown } | null)?.reason;
      const seen = { remote, canary: version, reason: typeof reason === 'string' ? reason : '' };
      this.parts.logger.error(
        { remote, canary: version, reason: seen.reason, at: change.at },
        `CANARY ROLLBACK SEEN: remote "${remote}" canary ${version} was rolled back automatically: ${seen.reason}`,
      );
      for (const listener of this.listeners) listener(seen);
    }
  }

  private runningCanaries(): Map<string, string> {
    const running = new Map<string, string>();
    for (const rollout of this.parts.snapshot.rollouts()) {
      if (rollout.canary) running.set(rollout.remote, rollout.canary.version);
    }
    return running;
  }
}
