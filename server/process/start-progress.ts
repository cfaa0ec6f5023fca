/**
 * What a start that takes long (the schema steps on PostgreSQL, or the wait for another host's; the search words'
 * indexing, or the wait for another host's) tells the entry that listens, and how that entry stops it. The modules
 * doing the work say `longStart` before it (startServer then listens, answering the probes: health/starting-gate.ts)
 * and stop at their next safe point once `signal` is aborted: a wait for a lock at once, steps and batches once the
 * one under way has committed. The start then rejects with the abort's reason.
 */
export class StartProgress {
  private readonly controller = new AbortController();
  private readonly listeners: Array<(reason: string) => Promise<void> | void> = [];

  /** Aborted by `stop`; its reason is what the start rejects with. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Hears, during the start, when it is about to take long and why (the words of `/readyz`'s `starting`). */
  onLongStart(listener: (reason: string) => Promise<void> | void): void {
    this.listeners.push(listener);
  }

  /**
   * Says the start is about to take long, and why. Resolves once the listeners have heard it (startServer: once it
   * listens), so that a start that cannot listen (its port taken) stops before the work; rejects if it was stopped.
   */
  async longStart(reason: string): Promise<void> {
    await Promise.all(this.listeners.map((listener) => listener(reason)));
    this.signal.throwIfAborted();
  }

  /** Stops the start at its next safe point, which rejects with `reason`. The first reason stays. */
  stop(reason: unknown): void {
    this.controller.abort(reason);
  }
}

/** What a start stopped by a signal rejects with: not a failure, the operator asked (startServer exits 0). */
export class StartStopped extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`the start was stopped by ${signal}`);
    this.name = 'StartStopped';
  }
}
