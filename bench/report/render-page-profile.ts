import { OUTSIDE_SCRIPTS } from '../browser/page-profile';
import { median } from '../harness/median';

/** One side of a profiled page: main-thread milliseconds per load by what ran, and its loads' ready times. */
export interface ProfiledSide {
  msByPackage: ReadonlyMap<string, number>;
  readyMs: readonly number[];
}

/** How many rows the table lists before it sums the rest. */
const LISTED_ROWS = 25;

/**
 * A page's main thread, federated against bundled, by package or folder, heaviest difference first: what the
 * federated page runs that the bundled one does not (the federation runtime, the remotes' entries), and the same
 * code costing each side differently. Plain text for a terminal and the run's log folder.
 */
export function renderPageProfile(title: string, federated: ProfiledSide, bundled: ProfiledSide): string {
  const names = [...new Set([...federated.msByPackage.keys(), ...bundled.msByPackage.keys()])];
  const rows = names
    .map((name) => ({
      name,
      federated: federated.msByPackage.get(name) ?? 0,
      bundled: bundled.msByPackage.get(name) ?? 0,
    }))
    .sort((a, b) => Math.abs(b.federated - b.bundled) - Math.abs(a.federated - a.bundled));
  const width = Math.max(30, ...rows.slice(0, LISTED_ROWS).map((row) => row.name.length));
  const line = (name: string, left: number, right: number) =>
    `${name.padEnd(width)}  ${left.toFixed(1).padStart(9)}  ${right.toFixed(1).padStart(9)}  ${signed(left - right).padStart(10)}`;
  const sum = (side: 'federated' | 'bundled', from: number) =>
    rows.slice(from).reduce((total, row) => total + row[side], 0);
  const scripts = (side: ProfiledSide) =>
    [...side.msByPackage].reduce((total, [name, ms]) => (name.startsWith('(') ? total : total + ms), 0);
  const lines = [
    title,
    `${''.padEnd(width)}  ${'federated'.padStart(9)}  ${'bundled'.padStart(9)}  ${'difference'.padStart(10)}`,
    ...rows.slice(0, LISTED_ROWS).map((row) => line(row.name, row.federated, row.bundled)),
  ];
  if (rows.length > LISTED_ROWS) {
    lines.push(line(`${rows.length - LISTED_ROWS} more`, sum('federated', LISTED_ROWS), sum('bundled', LISTED_ROWS)));
  }
  lines.push(
    line("the page's scripts, together", scripts(federated), scripts(bundled)),
    line('busy, together', sum('federated', 0), sum('bundled', 0)),
    line('ready (median of the profiled loads)', median(federated.readyMs), median(bundled.readyMs)),
    '',
    `Milliseconds of the page's main thread per load until every slot was rendered, from V8's sampling profiler (idle`,
    `time left out; the profiler slows both sides alike). Scripts are named by the package or repository folder of`,
    `their source (the builds' source maps); ${OUTSIDE_SCRIPTS} are functions of no script.`,
  );
  return `${lines.join('\n')}\n`;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
}
