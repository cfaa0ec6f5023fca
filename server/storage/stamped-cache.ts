/**
 * Values read from the database, kept while its change stamp stays the same and all dropped when it moves (any
 * committed write, in this process or another). Reads that sit on every request (the signed-in user, memberships)
 * then cost a map lookup instead of a query, and a deleted account or a removed membership still takes effect on
 * the next request after the write.
 */
export class StampedCache<K, V extends NonNullable<unknown> | null> {
  private stamp: string | null = null;
  /** Loads in flight are kept too, so requests asking for the same key at once share one query. */
  private readonly entries = new Map<K, Promise<V>>();

  /**
   * @param changeStamp the storage engine's stamp (StorageEngine.changeStamp)
   * @param maxEntries beyond this many keys, the cache starts over (it only holds what recent requests asked for)
   */
  constructor(
    private readonly changeStamp: () => string | Promise<string>,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K, load: (key: K) => Promise<V>): Promise<V> {
    const stamp = this.changeStamp();
    // SQLite's stamp is a string: a hit costs no extra turn of the promise queue (this sits on every request).
    return typeof stamp === 'string'
      ? this.lookup(stamp, key, load)
      : stamp.then((current) => this.lookup(current, key, load));
  }

  private lookup(stamp: string, key: K, load: (key: K) => Promise<V>): Promise<V> {
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    // Stored before it settles; a clear meanwhile (a newer stamp) drops it, so an old read never lands after a new one.
    const loading = load(key);
    this.entries.set(key, loading);
    loading.catch(() => {
      if (this.entries.get(key) === loading) this.entries.delete(key);
    });
    return loading;
  }
}
