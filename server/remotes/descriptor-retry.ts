export const DEFAULT_DESCRIPTOR_RETRY_MS = 30_000;

/**
 * The polling of remotes whose descriptor could not be had: one timer at a time, asking again after the interval
 * while some remote has not answered. It never keeps the process alive on its own.
 */
export class DescriptorRetry {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    /** Asks every remote not known yet again. */
    private readonly retry: () => void,
    readonly intervalMs: number = DEFAULT_DESCRIPTOR_RETRY_MS,
  ) {}

  /** Plans one retry, unless one is planned already or nothing waits. */
  schedule(someoneWaits: boolean): void {
    if (this.closed || this.timer || !someoneWaits) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.retry();
    }, this.intervalMs);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
