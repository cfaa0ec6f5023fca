import type { Logger } from 'pino';
import type { ReleaseService } from '../releases/release-service';
import type { ReleaseSnapshot } from '../releases/release-snapshot';
import { canaryVerdict, type JudgedSlot, type SlotLoads } from './canary-verdict';
import type { SlotLoadAggregator } from './slot-load-aggregator';
import { codeFailuresOf, judgedLoadsOf } from './slot-load-counts';
import type { CanaryRollbackSettings } from './slot-event-settings';
import { SPAN_MS, type SlotLoadStore, type SlotLoadSum } from './slot-load-store';

const DAY_MS = 24 * SPAN_MS.hour;

/** A release's judged loads and failures per slot (location and component), from summed counts. */
function slotLoadsOf(sums: readonly SlotLoadSum[], remote: string, release: string): SlotLoads[] {
  const slots: SlotLoads[] = [];
  for (const sum of sums) {
    if (sum.remote !== remote || sum.release !== release) continue;
    const { judged: loads, failures } = judgedLoadsOf(sum.counts);
    const codeFailures = codeFailuresOf(sum.counts);
    if (loads > 0) slots.push({ location: sum.location, component: sum.component, loads, failures, codeFailures });
  }
  return slots;
}

function sameSlot(a: SlotLoads, b: SlotLoads): boolean {
  return a.location === b.location && a.component === b.component;
}

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
 * Rolls back, on its own, a canary whose slot loads fail clearly more often than its stable release's on the same
 * slots (canary-verdict.ts). Every host
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
    // Only read when a canary's slot had no stable load in the window (a canary at 100 %, say).
    let daySums: Promise<SlotLoadSum[]> | null = null;
    const lastDay = () => (daySums ??= this.parts.store.sums('hour', this.now() - DAY_MS));
    for (const rollout of canaries) {
      if (rollout.canary === null || rollout.active === null) continue;
      const versions = { canary: rollout.canary.version, stable: rollout.active };
      const canarySlots = slotLoadsOf(sums, rollout.remote, versions.canary);
      if (canarySlots.reduce((total, slot) => total + slot.loads, 0) < settings.minLoads) continue;
      const stableNow = slotLoadsOf(sums, rollout.remote, versions.stable);
      const judged: JudgedSlot[] = [];
      for (const slot of canarySlots) {
        let stable = stableNow.find((other) => sameSlot(other, slot)) ?? null;
        if (stable === null) {
          stable = slotLoadsOf(await lastDay(), rollout.remote, versions.stable).find((o) => sameSlot(o, slot)) ?? null;
        }
        judged.push({ ...slot, stable });
      }
      const verdict = canaryVerdict(versions, judged, settings);
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
