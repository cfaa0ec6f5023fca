/** The server's start to ready and its idle memory, per way of running it (bench/suites/server-startup.ts). */
export interface StartupResult {
  name: string;
  /** Starts measured (after one untimed start that made the database). */
  starts: number;
  /**
   * Median time from spawning `node` to its first answer (`/readyz`, any status: it listens, `/healthz` 200 from
   * then). The same as readyMs for a start that listens once ready; earlier for one that listens while it starts.
   */
  answeredMs: number;
  /** Median time from spawning `node` to the first 200 of `/readyz`: it can serve. */
  readyMs: number;
  /** The slowest of those starts. */
  readyMsMax: number;
  /** Median resident memory once idle. */
  idleRssMiB: number;
  /** The goals this way of running it has to meet; null for the baseline. */
  goals: { readyMs: number; idleRssMiB: number } | null;
}
