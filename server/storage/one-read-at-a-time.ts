/**
 * Serialises the reads of a cache that several callers refresh (a poll, a change notice, a write of this host): one
 * read at a time, and a refresh asked for meanwhile reads again after it, since it may follow a newer write. The
 * next refresh waits for the current one whether it failed or not; only its own caller gets the failure (a promise
 * derived from a failed read and kept unobserved would be an unhandled rejection, e.g. when the app closes during a
 * read).
 */
export class OneReadAtATime {
  private reading: Promise<void> | null = null;

  run(read: () => Promise<void>): Promise<void> {
    const next = (this.reading ?? Promise.resolve()).then(read);
    const settled: Promise<void> = next.then(
      () => undefined,
      () => undefined,
    );
    this.reading = settled;
    void settled.then(() => {
      if (this.reading === settled) this.reading = null;
    });
    return next;
  }
}
