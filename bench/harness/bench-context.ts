import path from 'node:path';
import type { LoadPlan } from './compare-alternating';

/** What every benchmark of one run shares: the load plans, where to put its files, Node flags for the targets. */
export interface BenchContext {
  plans: { main: LoadPlan; sizes: LoadPlan };
  /** Temporary folder of this run (databases, captured bodies), removed at the end. */
  workDir: string;
  /** Server logs, kept after the run for reading. */
  logDir: string;
  /** When set, target servers run with `--cpu-prof`, each writing into `<cpuProfileDir>/<server name>/`. */
  cpuProfileDir: string | null;
}

/** A fresh path inside the run's folder, e.g. for one benchmark's database. */
export function workPath(context: BenchContext, name: string): string {
  return path.join(context.workDir, name);
}

export function logPath(context: BenchContext, name: string): string {
  return path.join(context.logDir, `${name}.log`);
}
