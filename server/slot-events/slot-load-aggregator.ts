import { SLOT_STATS_WINDOWS, type SlotLoadEvent, type SlotLoadStats, type SlotStatsWindow } from '../../shared';
import { addCounts, countEvent, emptyCounts, isCodeFailure, statsOf, type SlotLoadKey } from './slot-load-counts';
import {
  SPAN_MS,
  type SlotLoadDelta,
  type SlotLoadSpan,
  type SlotLoadStore,
  type SlotLoadSum,
} from './slot-load-store';
import type { SlotAudience, SlotVisitorRow, SlotVisitorStore, SlotVisitorSum } from './slot-visitor-store';
import type { SlotVisitor } from './visitor-id';

/**
 * The most visitors of one slot and bucket a host records: beyond, a visitor's loads are still counted, but not
 * itself (the table stays bounded: at most this × hosts rows per key and bucket). Far more than a verdict needs.
 */
export const MAX_VISITORS_PER_BUCKET = 1000;
/** The most visitor rows a host keeps in memory (those of the current minute and hour). */
const MAX_TRACKED_VISITORS = 100_000;

/** An event as the server took it in: the tenant and release are the server's, never the body's. */
export interface TaggedSlotLoadEvent extends SlotLoadEvent {
  /** The visitor's tenant (null when signed out); not an aggregate key (tenants would multiply the rows). */
  tenant: string | null;
  release: string;
  /** Who sent it (visitor-id.ts): staff (an account) or anonymous (an address), as a hash. */
  visitor: SlotVisitor;
}

/** What one host counted since it started: for logs and, later, its Prometheus counters. */
export interface SlotEventCounters {
  accepted: number;
  /** Dropped because the rows waiting for the next write were at their bound. */
  dropped: number;
  /** Rows written (one per key and bucket and write). */
  rowsWritten: number;
  /** Writes that failed (their counts were kept for the next one, within the bound). */
  failedWrites: number;
  /** Visitors not recorded (their loads still counted): MAX_VISITORS_PER_BUCKET or the memory bound reached. */
  droppedVisitors: number;
}

export interface SlotLoadAggregatorOptions {
  /** The signed-in staff's counts: a release's health figures. */
  store: SlotLoadStore;
  /** The counts of visitors not signed in, kept apart; without it they are left out. */
  anonymousStore?: SlotLoadStore;
  /** The distinct visitors; without it none are recorded. */
  visitorStore?: SlotVisitorStore;
  flushMs: number;
  maxPendingRows: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

/** Which buckets each window sums: the minutes of the last 5 minutes or hour, the hours of the last day. */
const WINDOW_SPAN: Record<SlotStatsWindow, SlotLoadSpan> = { '5m': 'minute', '1h': 'minute', '1d': 'hour' };

/**
 * Counts slot load events on this host and adds them to the database once per `flushMs`: a request only adds to a
 * map in memory (never waits for the database), and a write costs one row per key and bucket however many events
 * it holds. Memory is bounded by `maxPendingRows`; a burst beyond it is dropped and counted, never queued.
 */
export class SlotLoadAggregator {
  private pending = new Map<string, SlotLoadDelta & { audience: SlotAudience }>();
  /** Visitors of the current buckets (and older ones not yet written), `dirty` until written. */
  private visitors = new Map<string, SlotVisitorRow & { dirty: boolean }>();
  private readonly visitorsPerBucket = new Map<string, number>();
  private readonly counters: SlotEventCounters = {
    accepted: 0,
    dropped: 0,
    rowsWritten: 0,
    failedWrites: 0,
    droppedVisitors: 0,
  };
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(event: TaggedSlotLoadEvent) => void>();
  private lastPrune = 0;
  private readonly now: () => number;

  constructor(private readonly options: SlotLoadAggregatorOptions) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  /** Calls `listener` with every event counted (e.g. this host's metrics). Returns what stops it. */
  onRecord(listener: (event: TaggedSlotLoadEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Counts one event (in its minute and its hour); false when it was dropped (pending rows at their bound). */
  record(event: TaggedSlotLoadEvent): boolean {
    const at = this.now();
    const key: SlotLoadKey = {
      remote: event.remote,
      release: event.release,
      location: event.location,
      component: event.component,
    };
    const { audience } = event.visitor;
    if (audience === 'anonymous' && this.options.anonymousStore === undefined) return false;
    const deltas = (['minute', 'hour'] as const).map((span) => this.pendingDelta(span, at, key, audience));
    if (deltas.some((delta) => delta === null)) {
      this.counters.dropped++;
      return false;
    }
    for (const delta of deltas) countEvent(delta!.counts as number[], event);
    if (this.options.visitorStore)
      for (const span of ['minute', 'hour'] as const) this.recordVisitor(span, at, key, event);
    this.counters.accepted++;
    for (const listener of this.listeners) listener(event);
    return true;
  }

  /** Writes what was counted; resolves when it is in the database (rejections go to onError, counts are kept). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  /**
   * Every key with loads in `window`, and every release's total, summed over every host (what the database holds,
   * with this host's last counts written first).
   */
  async stats(
    window: SlotStatsWindow,
    audience: SlotAudience = 'staff',
  ): Promise<{ stats: SlotLoadStats[]; releases: SlotLoadStats[] }> {
    await this.flush();
    const store = audience === 'staff' ? this.options.store : this.options.anonymousStore;
    if (store === undefined) return { stats: [], releases: [] };
    const span = WINDOW_SPAN[window];
    const now = this.now();
    const since = bucketStart(span, now) - (SLOT_STATS_WINDOWS[window] - SPAN_MS[span]);
    const sums = await store.sums(span, since);
    const releases = new Map<string, SlotLoadSum>();
    for (const sum of sums) {
      const id = `${sum.remote}\0${sum.release}`;
      const total = releases.get(id) ?? { ...sum, location: '', component: '', counts: emptyCounts() };
      addCounts(total.counts, sum.counts);
      releases.set(id, total);
    }
    const visitorStore = this.options.visitorStore;
    const [perSlot, perRelease] = visitorStore
      ? await Promise.all([visitorStore.sums(span, since, audience), visitorStore.sums(span, since, audience, true)])
      : [[], []];
    const visitorsOf = (sums: readonly SlotVisitorSum[]) => {
      const byKey = new Map(sums.map((sum) => [keyId(sum), sum]));
      return ({ counts, ...key }: SlotLoadSum) => statsOf(key, counts, byKey.get(keyId(key)));
    };
    return { stats: sums.map(visitorsOf(perSlot)), releases: [...releases.values()].map(visitorsOf(perRelease)) };
  }

  /** This host's counters since it started (a copy). */
  snapshot(): SlotEventCounters {
    return { ...this.counters };
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  private pendingDelta(span: SlotLoadSpan, at: number, key: SlotLoadKey, audience: SlotAudience): SlotLoadDelta | null {
    const startAt = bucketStart(span, at);
    const id = `${audience}\0${span}\0${startAt}\0${keyId(key)}`;
    let delta = this.pending.get(id);
    if (delta === undefined) {
      if (this.pending.size >= this.options.maxPendingRows) return null;
      delta = { ...key, span, startAt, counts: emptyCounts(), audience };
      this.pending.set(id, delta);
    }
    return delta;
  }

  /**
   * Notes the event's visitor in its bucket: once per visitor, slot and bucket, its worst outcome kept (a failure, a
   * failure of the code). Beyond MAX_VISITORS_PER_BUCKET new visitors of a slot and bucket, or the memory bound, a
   * visitor is not recorded (its loads are counted all the same).
   */
  private recordVisitor(span: SlotLoadSpan, at: number, key: SlotLoadKey, event: TaggedSlotLoadEvent): void {
    const startAt = bucketStart(span, at);
    const bucket = `${span}\0${startAt}\0${event.visitor.audience}\0${keyId(key)}`;
    const id = `${bucket}\0${event.visitor.id}`;
    const failed = event.outcome === 'failed' || event.outcome === 'timed-out';
    const codeFailed = failed && isCodeFailure(event);
    const row = this.visitors.get(id);
    if (row !== undefined) {
      if ((failed && !row.failed) || (codeFailed && !row.codeFailed)) {
        row.failed ||= failed;
        row.codeFailed ||= codeFailed;
        row.dirty = true;
      }
      return;
    }
    const seen = this.visitorsPerBucket.get(bucket) ?? 0;
    if (seen >= MAX_VISITORS_PER_BUCKET || this.visitors.size >= MAX_TRACKED_VISITORS) {
      this.counters.droppedVisitors++;
      return;
    }
    this.visitorsPerBucket.set(bucket, seen + 1);
    const { audience, id: visitor } = event.visitor;
    this.visitors.set(id, { ...key, span, startAt, audience, visitor, failed, codeFailed, dirty: true });
  }

  private async write(): Promise<void> {
    const dirty = [...this.visitors.values()].filter((row) => row.dirty);
    if (this.pending.size === 0 && dirty.length === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    for (const row of dirty) row.dirty = false;
    try {
      const staff = [...batch.values()].filter((delta) => delta.audience === 'staff');
      const anonymous = [...batch.values()].filter((delta) => delta.audience === 'anonymous');
      await this.options.store.add(staff);
      if (anonymous.length > 0) await this.options.anonymousStore?.add(anonymous);
      if (dirty.length > 0) await this.options.visitorStore?.add(dirty);
      this.counters.rowsWritten += batch.size;
      const now = this.now();
      this.forgetPastVisitors(now);
      if (now - this.lastPrune >= SPAN_MS.minute) {
        this.lastPrune = now;
        await this.options.store.prune(now);
        await this.options.anonymousStore?.prune(now);
        await this.options.visitorStore?.prune(now);
      }
    } catch (error) {
      this.counters.failedWrites++;
      for (const row of dirty) row.dirty = true;
      this.keep(batch);
      this.options.onError?.(error);
    }
  }

  /** Forgets the visitors of buckets that have ended and are written (no event can come into them any more). */
  private forgetPastVisitors(now: number): void {
    for (const [id, row] of this.visitors) {
      if (!row.dirty && row.startAt < bucketStart(row.span, now)) this.visitors.delete(id);
    }
    for (const bucket of this.visitorsPerBucket.keys()) {
      const [span, startAt] = bucket.split('\0') as [SlotLoadSpan, string];
      if (Number(startAt) < bucketStart(span, now)) this.visitorsPerBucket.delete(bucket);
    }
  }

  /** Puts a batch that could not be written back, within the bound. */
  private keep(batch: Map<string, SlotLoadDelta & { audience: SlotAudience }>): void {
    for (const [id, delta] of batch) {
      const pending = this.pending.get(id);
      if (pending !== undefined) addCounts(pending.counts as number[], delta.counts);
      else if (this.pending.size < this.options.maxPendingRows) this.pending.set(id, delta);
    }
  }
}

function keyId(key: SlotLoadKey): string {
  return `${key.remote}\0${key.release}\0${key.location}\0${key.component}`;
}

function bucketStart(span: SlotLoadSpan, at: number): number {
  return Math.floor(at / SPAN_MS[span]) * SPAN_MS[span];
}
