/**
 * The p-th percentile (0 to 100) of the values, linearly interpolated between the two nearest ranks (the usual
 * definition: p50 is the median, p25 and p75 the quartiles), so that 20 page loads give a spread that moves smoothly.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile() of no values.');
  if (!(p >= 0 && p <= 100)) throw new Error(`percentile() of p=${p}: give 0 to 100.`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  const below = sorted[lower] as number;
  return below + ((sorted[upper] as number) - below) * (rank - lower);
}
