/**
 * Values read from the database, kept while its change stamp stays the same and all dropped when it moves (any
 * committed write, in this process or another). Reads that sit on every request (the signed-in user, memberships)
 * then cost a map lookup instead of a query, and a deleted account or a removed membership still takes effect on
 * the next request after the write.
 */
export class StampedCache<K, V extends NonNullable<unknown> | null> {
  private stamp: string | null = null;
  private readonly entries = new Map<K, V>();

  /**
   * @param changeStamp the database's stamp (AppDatabase.turnChangeStamp)
   * @param maxEntries beyond this many keys, the cache starts over (it only holds what recent requests asked for)
   */
  constructor(
    private readonly changeStamp: () => string,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K, load: (key: K) => V): V {
    const stamp = this.changeStamp();
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = load(key);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }
}
