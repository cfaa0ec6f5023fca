import { SLOT_STATS_WINDOWS, type SlotLoadEvent, type SlotLoadStats, type SlotStatsWindow } from '../../shared';
import { addCounts, countEvent, emptyCounts, statsOf, type SlotLoadKey } from './slot-load-counts';
import {
  SPAN_MS,
  type SlotLoadDelta,
  type SlotLoadSpan,
  type SlotLoadStore,
  type SlotLoadSum,
} from './slot-load-store';

/** An event as the server took it in: the tenant and release are the server's, never the body's. */
export interface TaggedSlotLoadEvent extends SlotLoadEvent {
  /** The visitor's tenant (null when signed out); not an aggregate key (tenants would multiply the rows). */
  tenant: string | null;
  release: string;
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
}

export interface SlotLoadAggregatorOptions {
  store: SlotLoadStore;
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
  private pending = new Map<string, SlotLoadDelta>();
  private readonly counters: SlotEventCounters = { accepted: 0, dropped: 0, rowsWritten: 0, failedWrites: 0 };
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
    const deltas = (['minute', 'hour'] as const).map((span) => this.pendingDelta(span, at, key));
    if (deltas.some((delta) => delta === null)) {
      this.counters.dropped++;
      return false;
    }
    for (const delta of deltas) countEvent(delta!.counts as number[], event);
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
  async stats(window: SlotStatsWindow): Promise<{ stats: SlotLoadStats[]; releases: SlotLoadStats[] }> {
    await this.flush();
    const span = WINDOW_SPAN[window];
    const now = this.now();
    const since = bucketStart(span, now) - (SLOT_STATS_WINDOWS[window] - SPAN_MS[span]);
    const sums = await this.options.store.sums(span, since);
    const releases = new Map<string, SlotLoadSum>();
    for (const sum of sums) {
      const id = `${sum.remote}\0${sum.release}`;
      const total = releases.get(id) ?? { ...sum, location: '', component: '', counts: emptyCounts() };
      addCounts(total.counts, sum.counts);
      releases.set(id, total);
    }
    const toStats = ({ counts, ...key }: SlotLoadSum) => statsOf(key, counts);
    return { stats: sums.map(toStats), releases: [...releases.values()].map(toStats) };
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

  private pendingDelta(span: SlotLoadSpan, at: number, key: SlotLoadKey): SlotLoadDelta | null {
    const startAt = bucketStart(span, at);
    const id = `${span}\0${startAt}\0${key.remote}\0${key.release}\0${key.location}\0${key.component}`;
    let delta = this.pending.get(id);
    if (delta === undefined) {
      if (this.pending.size >= this.options.maxPendingRows) return null;
      delta = { ...key, span, startAt, counts: emptyCounts() };
      this.pending.set(id, delta);
    }
    return delta;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.options.store.add([...batch.values()]);
      this.counters.rowsWritten += batch.size;
      const now = this.now();
      if (now - this.lastPrune >= SPAN_MS.minute) {
        this.lastPrune = now;
        await this.options.store.prune(now);
      }
    } catch (error) {
      this.counters.failedWrites++;
      this.keep(batch);
      this.options.onError?.(error);
    }
  }

  /** Puts a batch that could not be written back, within the bound. */
  private keep(batch: Map<string, SlotLoadDelta>): void {
    for (const [id, delta] of batch) {
      const pending = this.pending.get(id);
      if (pending !== undefined) addCounts(pending.counts as number[], delta.counts);
      else if (this.pending.size < this.options.maxPendingRows) this.pending.set(id, delta);
    }
  }
}

function bucketStart(span: SlotLoadSpan, at: number): number {
  return Math.floor(at / SPAN_MS[span]) * SPAN_MS[span];
}
