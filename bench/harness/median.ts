/** The middle value (mean of the two middle ones for an even count). Rounds are few, so one outlier must not move it. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median() of no values.');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}
