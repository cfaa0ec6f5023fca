/**
 * Load times are kept as counts per bucket, never as samples, so a key's row has a fixed size whatever the number
 * of loads; percentiles are estimated from the counts. The edges (ms) follow what a visitor notices: instant, fast,
 * slow, then the remote's timeouts (3.5 s manifest, 4 s entry, one retry).
 */
export const LOAD_MS_EDGES = [100, 250, 500, 1000, 2500, 5000, 10_000] as const;

/** The database column of each bucket, in order; the last one holds every load over the last edge. */
export const LOAD_MS_COLUMNS = [
  'ms_100',
  'ms_250',
  'ms_500',
  'ms_1000',
  'ms_2500',
  'ms_5000',
  'ms_10000',
  'ms_over',
] as const;

export type LoadMsColumn = (typeof LOAD_MS_COLUMNS)[number];

/** The bucket a load time falls in (index into LOAD_MS_COLUMNS). */
export function loadMsBucket(ms: number): number {
  const index = LOAD_MS_EDGES.findIndex((edge) => ms <= edge);
  return index === -1 ? LOAD_MS_EDGES.length : index;
}

/**
 * The `quantile` (0.95 for p95) of the loads counted in `counts`, interpolated linearly inside its bucket (the last
 * bucket answers its lower edge: "over 10 s"). Null when nothing was counted.
 */
export function loadMsQuantile(counts: readonly number[], quantile: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = quantile * total;
  let below = 0;
  for (let index = 0; index < counts.length; index++) {
    const count = counts[index] ?? 0;
    if (count > 0 && below + count >= rank) {
      const low = index === 0 ? 0 : (LOAD_MS_EDGES[index - 1] as number);
      const high = LOAD_MS_EDGES[index];
      if (high === undefined) return low;
      return Math.round(low + ((high - low) * (rank - below)) / count);
    }
    below += count;
  }
  return LOAD_MS_EDGES.at(-1) as number;
}
