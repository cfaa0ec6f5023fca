/**
 * The base of the host's plain stores (component registries, slot source, session, slot status and its views): a
 * current value that only the store replaces, and listeners told after each replacement. React reads one with
 * `useSyncExternalStore(store.subscribe, store.snapshot)`, so both are bound once here.
 */
export class ExternalStore<T> {
  private current: T;
  private readonly listeners = new Set<() => void>();

  constructor(initial: T) {
    this.current = initial;
  }

  /** The current value; the same object until the next change. */
  readonly snapshot = (): T => this.current;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Replaces the value and tells the listeners; the same value again changes nothing. */
  protected publish(next: T): void {
    if (Object.is(next, this.current)) return;
    this.current = next;
    // A copy: a listener may unsubscribe (or subscribe another) while being told.
    for (const listener of [...this.listeners]) listener();
  }
}
