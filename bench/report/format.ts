/** Figures as the report prints them: few digits, units spelled out, the same everywhere. */

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function formatRatio(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : 'n/a';
}

/**
 * Milliseconds. autocannon's latency histogram counts whole milliseconds, so a load-test latency of 0 means
 * "under 1 ms" and is printed so; page timings keep their fraction.
 */
export function formatMs(value: number): string {
  if (value === 0) return '<1 ms';
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
}

export function formatBytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${(value / (1024 * 1024)).toFixed(2)} MiB`;
}

/** Throughput in megabytes (10^6) per second, the unit load tools print. */
export function formatMBps(bytesPerSecond: number): string {
  return `${(bytesPerSecond / 1_000_000).toFixed(1)} MB/s`;
}

export function verdict(met: boolean): string {
  return met ? 'met' : '**missed**';
}
