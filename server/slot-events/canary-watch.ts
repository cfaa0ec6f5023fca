import type { Logger } from 'pino';
import { AUTO_ROLLBACK_ACTOR, type ReleaseService } from '../releases/release-service';
import type { ReleaseSnapshot } from '../releases/release-snapshot';
import { canaryVerdict, type CanaryEvidence, type SlotEvidence, type VisitorShare } from './canary-verdict';
import type { SlotLoadAggregator } from './slot-load-aggregator';
import { judgedLoadsOf } from './slot-load-counts';
import type { CanaryRollbackSettings } from './slot-event-settings';
import { SPAN_MS, type SlotLoadStore } from './slot-load-store';
import type { SlotVisitorOfWindow, SlotVisitorStore } from './slot-visitor-store';
import type { CanaryJudgement, RolloutJudge } from '../releases/rollout-plans';
import { repeatedFailureLog } from '../observability/repeated-failure-log';

const DAY_MS = 24 * SPAN_MS.hour;

const slotOf = (row: { location: string; component: string }) => `${row.component} at ${row.location}`;

/** Distinct visitors over rows (one per visitor and slot): a visitor failed when it failed on any of them. */
function shareOf(rows: readonly SlotVisitorOfWindow[]): VisitorShare {
  const worst = new Map<string, { failed: boolean; codeFailed: boolean }>();
  for (const row of rows) {
    const seen = worst.get(row.visitor) ?? { failed: false, codeFailed: false };
    worst.set(row.visitor, { failed: seen.failed || row.failed, codeFailed: seen.codeFailed || row.codeFailed });
  }
  const all = [...worst.values()];
  return {
    visitors: all.length,
    failed: all.filter((visitor) => visitor.failed).length,
    codeFailed: all.filter((visitor) => visitor.codeFailed).length,
  };
}

/** The rows of each slot (`Component at location`), in the order first seen. */
function bySlot(rows: readonly SlotVisitorOfWindow[]): Map<string, SlotVisitorOfWindow[]> {
  const perSlot = new Map<string, SlotVisitorOfWindow[]>();
  for (const row of rows) {
    const slot = slotOf(row);
    const slotRows = perSlot.get(slot);
    if (slotRows) slotRows.push(row);
    else perSlot.set(slot, [row]);
  }
  return perSlot;
}

/** `InvoiceBanner at header-banner (3 of 4 visitors failed)`: the canary's slot with the largest failing share. */
function worstSlotOf(slots: readonly SlotEvidence[]): string {
  let worst = { slot: '', failed: -1, visitors: 1 };
  for (const { slot, canary } of slots) {
    if (canary.failed / canary.visitors > worst.failed / worst.visitors) worst = { slot, ...canary };
  }
  return `${worst.slot} (${worst.failed} of ${worst.visitors} visitors failed)`;
}

export interface CanaryWatchParts {
  snapshot: ReleaseSnapshot;
  service: ReleaseService;
  aggregator: SlotLoadAggregator;
  store: SlotLoadStore;
  visitorStore: SlotVisitorStore;
  logger: Logger;
  /** The database as the operator knows it (StorageEngine.displayName), named by the lines of failed comparisons. */
  database: string;
  settings: CanaryRollbackSettings;
  now?: () => number;
}

/**
 * Rolls back, on its own, a canary whose signed-in visitors see failures clearly more often than the stable release's
 * on the same slots (canary-verdict.ts: distinct visitors, a one-sided test at 99 %). Visitors not signed in are not
 * judged (anyone can send their events). Every host
 * runs it every `checkMs` on the counts every host shares (the database): the first to decide ends the canary,
 * audited as `canary-auto-rollback` with the numbers, and logs it at error level; the others find it ended.
 */
export class CanaryWatch implements RolloutJudge {
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
    // At every check on every host: a database away for a minute is a line every 30 s, not a stack per check.
    const failed = repeatedFailureLog(this.parts.logger, 'canary watch: comparing the canaries failed; tried again', {
      store: this.parts.database,
    });
    this.timer ??= setInterval(() => void this.check().catch(failed), this.parts.settings.checkMs);
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

  /**
   * A progressive rollout's step asks this before it advances (releases/rollout-plans.ts): the canary's signed-in
   * visitors since the step began against the stable release's, by the same rule that rolls a canary back. `worse`
   * when it would be rolled back (with the verdict's figures, as this watch's rollback audits them), `no-worse` once
   * the step has its visitors (and the watch's minimum, which a step's own count never lowers) without that, `unknown`
   * until then (with how many visitors it has and needs, once the canary is judged at all).
   */
  async canaryHealth(
    remote: string,
    version: string,
    step: { since: number; minVisitors: number },
  ): Promise<CanaryJudgement> {
    const { snapshot, aggregator, settings } = this.parts;
    const stable = snapshot.rollout(remote)?.active;
    // Switched off (CANARY_AUTO_ROLLBACK=off), the server judges no canary: a plan holds until an operator acts.
    if (!settings.enabled || !stable) return { health: 'unknown' };
    await aggregator.flush();
    const versions = { canary: version, stable };
    const needed = Math.max(step.minVisitors, settings.minVisitors);
    const evidence = await this.evidence(remote, versions, Math.floor(step.since / SPAN_MS.minute) * SPAN_MS.minute);
    if (evidence === null) return { health: 'unknown', visitors: { visitors: 0, needed } };
    const verdict = canaryVerdict(versions, evidence, settings);
    if (verdict.rollBack) return { health: 'worse', reason: verdict.reason };
    const { visitors } = evidence.canary;
    return visitors >= needed ? { health: 'no-worse' } : { health: 'unknown', visitors: { visitors, needed } };
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
      const versions = { canary: rollout.canary.version, stable: rollout.active };
      const canaryLoads = sums
        .filter((sum) => sum.remote === rollout.remote && sum.release === versions.canary)
        .reduce((total, sum) => total + judgedLoadsOf(sum.counts).judged, 0);
      if (canaryLoads < settings.minLoads) continue;
      const evidence = await this.evidence(rollout.remote, versions, since);
      if (evidence === null) continue;
      const verdict = canaryVerdict(versions, evidence, settings);
      if (!verdict.rollBack) continue;
      const rolledBack = await this.parts.service.autoRollback(rollout.remote, versions.canary, verdict.reason);
      if (rolledBack) {
        for (const listener of this.rollBackListeners) listener(rollout.remote, versions.canary);
        this.parts.logger.error(
          {
            // The fields of every rollout change's log line (release-change-log.ts), with the versions compared.
            actor: AUTO_ROLLBACK_ACTOR,
            remote: rollout.remote,
            action: 'canary-auto-rollback',
            version: versions.canary,
            canary: versions.canary,
            stable: versions.stable,
            reason: verdict.reason,
          },
          `CANARY ROLLED BACK AUTOMATICALLY: remote "${rollout.remote}" ${verdict.reason}`,
        );
      }
    }
  }

  /**
   * The canary's signed-in visitors in the window, and the stable release's on the same slots (in the window, else
   * over the last day); null when the canary has none.
   */
  private async evidence(
    remote: string,
    versions: { canary: string; stable: string },
    since: number,
  ): Promise<CanaryEvidence | null> {
    const { visitorStore } = this.parts;
    const rows = await visitorStore.staffVisitorsOf('minute', since, remote, [versions.canary, versions.stable]);
    const canaryRows = rows.filter((row) => row.release === versions.canary);
    if (canaryRows.length === 0) return null;
    const canarySlots = bySlot(canaryRows);
    const onSlots = (all: readonly SlotVisitorOfWindow[]) =>
      all.filter((row) => row.release === versions.stable && canarySlots.has(slotOf(row)));
    const stableInWindow = onSlots(rows);
    let lastDay: Promise<SlotVisitorOfWindow[]> | null = null;
    const stableOfLastDay = () =>
      (lastDay ??= visitorStore
        .staffVisitorsOf('hour', this.now() - DAY_MS, remote, [versions.stable])
        .then((dayRows) => onSlots(dayRows)));
    const stableRows = stableInWindow.length > 0 ? stableInWindow : await stableOfLastDay();
    // Each slot against the stable release's visitors of it in the window, else over the last day, as the whole.
    const stableSlots = bySlot(stableInWindow);
    let stableSlotsOfLastDay: Map<string, SlotVisitorOfWindow[]> | null = null;
    const slots: SlotEvidence[] = [];
    for (const [slot, slotRows] of canarySlots) {
      const stableOfSlot =
        stableSlots.get(slot) ?? (stableSlotsOfLastDay ??= bySlot(await stableOfLastDay())).get(slot) ?? [];
      slots.push({ slot, canary: shareOf(slotRows), stable: shareOf(stableOfSlot) });
    }
    return { canary: shareOf(canaryRows), stable: shareOf(stableRows), worstSlot: worstSlotOf(slots), slots };
  }
}
